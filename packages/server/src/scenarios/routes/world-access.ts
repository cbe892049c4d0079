/**
 * Who may use a world: the token of its trial, while the trial is open. Anything else is refused
 * before anything of the world is read: no token or not a trial token (401), the token of another
 * world (403, whether that world exists or not), a sealed or expired trial (401 `trial_closed`).
 * Project keys never get here for the HTTP routes (the route guard refuses them, 403); the MCP
 * endpoint refuses them itself.
 * @module
 */
import { ApiError } from '../../http/api-error.js';
import type { Scenarios } from '../scenarios.js';
import type { TrialContext } from '../store/trial-store.js';
import { closedWorld } from '../store/world-calls.js';
import { TRIAL_TOKEN_PATTERN } from '../trial-token.js';

const CHALLENGE = { 'www-authenticate': 'Bearer' };

/** The presented Bearer credential, or `undefined`. */
export function bearerOf(header: string | null | undefined): string | undefined {
  return header === null || header === undefined ? undefined : /^Bearer[ ]+(\S+)\s*$/i.exec(header)?.[1];
}

/**
 * The open trial whose world `worldId` the request's token may use.
 *
 * @throws ApiError 401 `unauthorized` (no trial token), 403 `forbidden` (another world's token),
 *   401 `trial_closed` (sealed or expired).
 */
export function worldTrial(
  scenarios: Scenarios,
  authorization: string | null | undefined,
  worldId: string,
): TrialContext {
  const token = bearerOf(authorization);
  if (token === undefined) {
    throw new ApiError(
      401,
      'unauthorized',
      'Send the trial\'s token as "Authorization: Bearer <token>".',
      CHALLENGE,
    );
  }
  const trial = TRIAL_TOKEN_PATTERN.test(token) ? scenarios.trials.findByToken(token) : undefined;
  if (trial === undefined) {
    throw new ApiError(401, 'unauthorized', 'This is not a valid trial token.', CHALLENGE);
  }
  if (trial.row.world_id !== worldId) {
    throw new ApiError(403, 'forbidden', "A trial token calls its own world's tools only.");
  }
  if (!scenarios.trials.isOpen(trial.row)) throw closedWorld();
  return trial;
}
