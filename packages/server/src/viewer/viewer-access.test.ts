import { describe, expect, it } from 'vitest';
import { ingest } from '../test-support/media-fixtures.js';
import { jsonSpan, newTraceId, tracesRequest } from '../test-support/otlp-fixtures.js';
import { useServer } from '../test-support/server-fixture.js';
import { logIn, postLogin, sessionCookieOf, viewerGet } from '../test-support/viewer-fixtures.js';
import { LOGIN_LINK_TTL_MILLIS, SESSION_TTL_MILLIS } from './session/viewer-sessions.js';

const fx = useServer();

/** Every preset, and what the issue says of each: Read and Read-and-write keys open the viewer. */
const KEYS = ['read', 'readWrite', 'tracing', 'setup', 'machine'] as const;

describe('viewer access: login with a key', () => {
  it('sends a page request without a session to the login page, which comes back to it', async () => {
    const res = await viewerGet(fx.server, '/traces?spanName=chat');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent('/traces?spanName=chat')}`);
    const login = await viewerGet(fx.server, res.headers.get('location')!);
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).toContain('name="next" value="/traces?spanName=chat"');
    expect(html).toContain('type="password"');
  });

  it('opens a session with a Read key: an HttpOnly, SameSite=Strict cookie, then the page', async () => {
    const res = await postLogin(fx.server, fx.server.keys.read, { next: '/traces' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/traces');
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^svc_viewer_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(/; Max-Age=\d+/);
    expect(setCookie).not.toMatch(/Secure/); // plain HTTP: a Secure cookie would never come back
    expect(setCookie).not.toContain(fx.server.keys.read);
    const page = await viewerGet(fx.server, '/traces', sessionCookieOf(res));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>Traces</h1>');
  });

  it.each(KEYS)('a %s key: only Read and Read-and-write keys open a session', async (preset) => {
    const key = fx.server.keys[preset];
    const res = await postLogin(fx.server, key);
    const body = await res.text();
    expect(body).not.toContain(key);
    if (preset === 'read' || preset === 'readWrite') {
      expect(res.status).toBe(303);
      expect(sessionCookieOf(res)).toBeDefined();
    } else {
      expect(res.status).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(body).toContain('Log in with a Read key or a Read-and-write key');
    }
  });

  it('says which key to use when a tracing key is given', async () => {
    const res = await postLogin(fx.server, fx.server.keys.tracing);
    const body = await res.text();
    expect(body).toContain('A tracing key sends traces but cannot read them back.');
    expect(body).toContain('SVC_READ_KEY');
  });

  it('refuses an unknown key (401) and an empty one (400), never repeating what was typed', async () => {
    const wrong = `svc_read_${'x'.repeat(43)}`;
    const res = await postLogin(fx.server, wrong);
    expect(res.status).toBe(401);
    const body = await res.text();
    expect(body).toContain('That is not a key of this project.');
    expect(body).not.toContain(wrong);
    expect((await postLogin(fx.server, '   ')).status).toBe(400);
  });

  it('refuses a login form posted from another origin (CSRF)', async () => {
    const res = await postLogin(fx.server, fx.server.keys.read, { origin: 'https://attacker.example' });
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('never returns to another site after logging in (next is a viewer page of this origin)', async () => {
    for (const next of [
      'https://attacker.example/',
      '//attacker.example/traces',
      '/\\attacker.example',
      '/api/v1/traces',
    ]) {
      const res = await postLogin(fx.server, fx.server.keys.read, { next });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/traces');
    }
  });

  it('sets a Secure, __Host- cookie over HTTPS', async () => {
    const res = await postLogin(fx.server, fx.server.keys.read, { base: 'https://viewer.example' });
    expect(res.status).toBe(303);
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^__Host-svc_viewer_session=/);
    expect(setCookie).toMatch(/; Secure/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
  });

  it('ends the session at /logout', async () => {
    const cookie = await logIn(fx.server);
    expect((await viewerGet(fx.server, '/traces', cookie)).status).toBe(200);
    const res = await fx.server.app.request(`${fx.server.origin}/logout`, {
      method: 'POST',
      headers: { cookie, origin: fx.server.origin, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^svc_viewer_session=;.*Max-Age=0/);
    expect((await viewerGet(fx.server, '/traces', cookie)).status).toBe(303);
  });

  it("takes the receipt's traceUrl through the login page to the trace", async () => {
    const traceId = newTraceId();
    await ingest(fx.server, 'traces', tracesRequest([jsonSpan(traceId, { name: 'receipt-root' })]));
    const receipt = await fx.receipt(traceId);
    const { traceUrl } = (await receipt.json()) as { traceUrl: string };
    expect(traceUrl).toBe(`${fx.server.origin}/traces/${traceId}`);
    const first = await viewerGet(fx.server, traceUrl);
    expect(first.status).toBe(303);
    const next = new URL(first.headers.get('location')!, fx.server.origin).searchParams.get('next');
    expect(next).toBe(`/traces/${traceId}`);
    const login = await postLogin(fx.server, fx.server.keys.read, { next: next! });
    expect(login.headers.get('location')).toBe(`/traces/${traceId}`);
    const page = await viewerGet(fx.server, `/traces/${traceId}`, sessionCookieOf(login));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('receipt-root');
  });

  it('answers a navigation from another site without a session by reloading from this origin', async () => {
    const res = await viewerGet(fx.server, '/traces/0123456789abcdef0123456789abcdef', undefined, {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(
      '<meta http-equiv="refresh" content="0; url=/traces/0123456789abcdef0123456789abcdef"/>',
    );
  });

  it('answers file, value and fragment requests without a session with 401, not a page', async () => {
    const traceId = newTraceId();
    for (const path of [
      `/traces/${traceId}/files/${'a'.repeat(64)}`,
      `/traces/${traceId}/files/${'a'.repeat(64)}/wav`,
      `/traces/${traceId}/spans/0123456789abcdef/value?attribute=x`,
      `/traces/${traceId}/spans/0123456789abcdef`,
    ]) {
      const res = await viewerGet(fx.server, path);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});

describe('viewer access: one-time login links', () => {
  it('logs the browser in once and lands on the page it names', async () => {
    const traceId = newTraceId();
    const link = fx.server.viewerLoginLink(`/traces/${traceId}`);
    expect(link).toMatch(new RegExp(`^${fx.server.origin}/login/link\\?token=[A-Za-z0-9_-]{43}&next=`));
    for (const key of Object.values(fx.server.keys)) expect(link).not.toContain(key);
    const res = await viewerGet(fx.server, link);
    expect(res.status).toBe(200);
    const cookie = sessionCookieOf(res);
    expect(cookie).toBeDefined();
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    expect(await res.text()).toContain(`<meta http-equiv="refresh" content="0; url=/traces/${traceId}"/>`);
    expect((await viewerGet(fx.server, '/traces', cookie)).status).toBe(200);

    const again = await viewerGet(fx.server, link);
    expect(again.status).toBe(403);
    expect(sessionCookieOf(again)).toBeUndefined();
    expect(await again.text()).toContain('This login link has expired or was used already');
  });

  it('refuses a token it never issued', async () => {
    const res = await viewerGet(fx.server, `/login/link?token=${'A'.repeat(43)}`);
    expect(res.status).toBe(403);
    expect(sessionCookieOf(res)).toBeUndefined();
  });

  it('takes only viewer pages as where to land', () => {
    expect(() => fx.server.viewerLoginLink('https://attacker.example/')).toThrow(
      'path must be a viewer page (/traces…, /experiments…, /scenarios…); got "https://attacker.example/"',
    );
    expect(fx.server.viewerLoginLink('/experiments')).toContain(
      `&next=${encodeURIComponent('/experiments')}`,
    );
    expect(fx.server.viewerLoginLink()).not.toContain('next=');
  });
});

describe('viewer pages: security headers', () => {
  it('sends a strict CSP whose nonce is the script tag’s, and no framing', async () => {
    const cookie = await logIn(fx.server);
    for (const path of ['/login', '/traces']) {
      const res = await viewerGet(fx.server, path, path === '/login' ? undefined : cookie);
      expect(res.status, path).toBe(200);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).not.toContain('unsafe-inline');
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeDefined();
      const html = await res.text();
      expect(html).toMatch(
        new RegExp(
          `<script src="/viewer/static/viewer\\.[0-9a-f]{12}\\.js" nonce="${nonce!.replace(/[+/=]/g, '\\$&')}" defer="">`,
        ),
      );
      expect(html.match(/<script/g)).toHaveLength(1);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('viewer access: sessions and login links expire', () => {
  // The viewer's clock, moved by the tests (never a wait).
  let now = Date.UTC(2026, 10, 25);
  const clocked = useServer({ viewerClock: () => now });

  it('sends a page request with an expired session to the login page (12 hours after login)', async () => {
    const cookie = await logIn(clocked.server);
    expect((await viewerGet(clocked.server, '/traces', cookie)).status).toBe(200);
    now += SESSION_TTL_MILLIS - 1;
    expect((await viewerGet(clocked.server, '/traces', cookie)).status).toBe(200);
    now += 1;
    const expired = await viewerGet(clocked.server, '/traces', cookie);
    expect(expired.status).toBe(303);
    expect(expired.headers.get('location')).toBe(`/login?next=${encodeURIComponent('/traces')}`);
  });

  it('refuses a one-time login link opened 15 minutes after it was made', async () => {
    const link = new URL(clocked.server.viewerLoginLink('/traces'));
    now += LOGIN_LINK_TTL_MILLIS;
    const res = await viewerGet(clocked.server, `${link.pathname}${link.search}`);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.text()).toContain('This login link has expired or was used already');
  });
});
