/**
 * The middleware in front of every route: injected faults (when enabled), then authentication
 * (`Authorization: Bearer <key>`) and the preset check of the route's row of the route table
 * (handed in by `app.ts`). Routes marked `auth: 'signed-link'` skip authentication here: their
 * handler checks the link's signature. Routes marked `auth: 'trial-token'` refuse project keys
 * here (403) and leave the trial token to their handler.
 * @module
 */
import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import type { FaultInjector } from '../faults/fault-injector.js';
import { ApiError } from '../http/api-error.js';
import type { RouteAccess } from './key-presets.js';
import type { KeyRing, StoredKey } from './key-ring.js';

/** Variables a guarded route sees (`key` is unset on signed-link routes). */
export interface GuardedEnv {
  Bindings: Partial<HttpBindings>;
  Variables: { key: StoredKey };
}

const PRESET_NAMES = {
  tracing: 'Tracing',
  read: 'Read',
  read_write: 'Read and write',
  setup: 'Setup',
  machine: 'Machine',
} as const;

function presentedKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

async function applyFault(
  faults: FaultInjector,
  route: string,
  bindings: Partial<HttpBindings>,
): Promise<void> {
  const fault = faults.take(route);
  if (fault === undefined) return;
  switch (fault.kind) {
    case 'status': {
      const retryAfter = String(fault.retryAfterSeconds ?? 1);
      throw fault.status === 429
        ? new ApiError(429, 'rate_limited', 'Too many requests; retry after the Retry-After delay.', {
            'retry-after': retryAfter,
          })
        : new ApiError(503, 'unavailable', 'The service is unavailable; retry after the Retry-After delay.', {
            'retry-after': retryAfter,
          });
    }
    case 'hang':
      if (fault.millis === undefined) await faults.hold(route);
      else await new Promise((resolve) => setTimeout(resolve, fault.millis));
      return;
    case 'reset':
      if (bindings.incoming === undefined) throw new Error('a connection reset needs a real connection');
      bindings.incoming.socket.destroy();
      throw new ApiError(500, 'internal', 'connection reset');
  }
}

/**
 * Guards the route `route` (its ID in the route table), whose row is `access`: faults first (when
 * `faults` is given), then the key and its preset.
 */
export function routeGuard(
  route: string,
  access: RouteAccess,
  keyRing: KeyRing,
  faults?: FaultInjector,
): MiddlewareHandler<GuardedEnv> {
  return async (c, next) => {
    if (faults !== undefined) await applyFault(faults, route, c.env ?? {});
    if (access.auth === 'signed-link') {
      await next();
      return;
    }
    const presented = presentedKey(c.req.header('authorization'));
    if (access.auth === 'trial-token') {
      // A project key is not a trial token: refused as any key of a preset the route does not
      // allow. Anything else goes to the route, which checks the token.
      const key = presented === undefined ? undefined : keyRing.find(presented);
      if (key !== undefined) {
        throw new ApiError(
          403,
          'forbidden',
          `A ${PRESET_NAMES[key.preset]} key cannot call ${access.method} ${access.path}; use the trial token the trial's start answered.`,
        );
      }
      await next();
      return;
    }
    if (presented === undefined) {
      throw new ApiError(401, 'unauthorized', 'Send the project key as "Authorization: Bearer <key>".', {
        'www-authenticate': 'Bearer',
      });
    }
    const key = keyRing.find(presented);
    if (key === undefined) {
      throw new ApiError(401, 'unauthorized', 'The key is not a valid key of this project.', {
        'www-authenticate': 'Bearer',
      });
    }
    if (!access.presets.includes(key.preset)) {
      const allowed = access.presets.map((p) => PRESET_NAMES[p]).join(', ');
      throw new ApiError(
        403,
        'forbidden',
        `A ${PRESET_NAMES[key.preset]} key cannot call ${access.method} ${access.path}; use a key of preset: ${allowed}.`,
      );
    }
    c.set('key', key);
    await next();
  };
}
