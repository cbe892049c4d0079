/**
 * Which keys open the viewer: a Read or Read-and-write key (the viewer shows recorded content,
 * spec "Authentication" 2 and 6: the tracing key gives no trace browsing). Every other key is
 * refused with a message saying which key to use; the key itself is never repeated.
 * @module
 */
import type { KeyRing } from '../../auth/key-ring.js';
import type { ViewerSession } from './viewer-sessions.js';

/** Where a Read key of a local server is found, for the messages. */
const WHERE_READ_KEY = 'svc serve writes one to its env file as SVC_READ_KEY';

const REFUSALS = {
  tracing:
    'A tracing key sends traces but cannot read them back. Log in with a Read key or a Read-and-write key of this project',
  setup:
    'A setup credential cannot read traces. Log in with a Read key or a Read-and-write key of this project',
  machine:
    'A machine credential (managed targets) cannot read traces. Log in with a Read key or a Read-and-write key of this project',
} as const;

/** The outcome of a login with a presented key. */
export type LoginCheck =
  | { ok: true; session: Omit<ViewerSession, 'expiresAt'> }
  | { ok: false; status: 400 | 401 | 403; message: string };

/** Checks the key a login form presents. */
export function checkLoginKey(keyRing: KeyRing, presented: string): LoginCheck {
  const key = presented.trim();
  if (key === '') {
    return {
      ok: false,
      status: 400,
      message: `Enter a Read key or a Read-and-write key (${WHERE_READ_KEY}).`,
    };
  }
  const found = key.length > 512 ? undefined : keyRing.find(key);
  if (found === undefined) {
    return {
      ok: false,
      status: 401,
      message: `That is not a key of this project. Use a Read key or a Read-and-write key (${WHERE_READ_KEY}).`,
    };
  }
  if (found.preset === 'read' || found.preset === 'read_write') {
    return { ok: true, session: { preset: found.preset, keyId: found.id } };
  }
  return { ok: false, status: 403, message: `${REFUSALS[found.preset]} (${WHERE_READ_KEY}).` };
}
