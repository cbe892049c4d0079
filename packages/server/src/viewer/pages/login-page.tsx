/**
 * The login page: a Read or Read-and-write key opens a browser session. The key field is never
 * filled back in, and a refused key is never repeated.
 * @module
 */
import { Layout, type PageFrame } from './layout.js';

/** The login form, with a problem to show (a refused key, an expired link) when there is one. */
export function LoginPage(props: { frame: PageFrame; next: string; problem?: string; notice?: string }) {
  return (
    <Layout frame={props.frame} title="Log in">
      <section class="login">
        <h1>Log in to Traces</h1>
        <p class="muted">
          The viewer shows recorded content and files, so it opens with a <strong>Read</strong> key or a{' '}
          <strong>Read-and-write</strong> key of this project. A local server started with{' '}
          <code>svc serve</code> writes one to its env file as <code>SVC_READ_KEY</code> and prints a one-time
          login link.
        </p>
        {props.notice === undefined ? null : <p class="notice">{props.notice}</p>}
        {props.problem === undefined ? null : (
          <p class="problem" role="alert">
            {props.problem}
          </p>
        )}
        <form method="post" action="/login">
          <input type="hidden" name="next" value={props.next} />
          <label for="key">Read key</label>
          <input
            id="key"
            name="key"
            type="password"
            autocomplete="off"
            spellcheck={false}
            required
            placeholder="svc_read_…"
          />
          <button class="primary" type="submit">
            Log in
          </button>
        </form>
      </section>
    </Layout>
  );
}

/** A page with only a message (logged out, a refused link, a missing trace). */
export function MessagePage(props: {
  frame: PageFrame;
  title: string;
  message: string;
  link?: { href: string; text: string };
}) {
  return (
    <Layout frame={props.frame} title={props.title}>
      <section class="login">
        <h1>{props.title}</h1>
        <p>{props.message}</p>
        {props.link === undefined ? null : <a href={props.link.href}>{props.link.text}</a>}
      </section>
    </Layout>
  );
}
