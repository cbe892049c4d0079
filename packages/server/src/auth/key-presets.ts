/**
 * Key presets, and the shape of a route's row in the table of which presets each route allows.
 * The table itself is composed at the top (`route-table.ts`) from each feature's rows.
 * @module
 */

/**
 * The presets a project key is issued with. `setup` is a setup credential (`svc_setup_…`);
 * `machine` is the machine credential of managed targets (`svc_machine_…`): the service signs the
 * requests it sends to a managed target with it, and the target's handler claims executions and
 * saves their outcomes with it.
 */
export type KeyPreset = 'tracing' | 'read' | 'read_write' | 'setup' | 'machine';

/** Every preset, in a fixed order. */
export const KEY_PRESETS: readonly KeyPreset[] = ['tracing', 'read', 'read_write', 'setup', 'machine'];

/** The prefix of each preset's keys. Keys are `<prefix><43 base64url characters>`. */
export const KEY_PREFIXES: Readonly<Record<KeyPreset, string>> = {
  tracing: 'svc_tracing_',
  read: 'svc_read_',
  read_write: 'svc_rw_',
  setup: 'svc_setup_',
  machine: 'svc_machine_',
};

/** A route of the service and the presets allowed to call it. */
export interface RouteAccess {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  presets: readonly KeyPreset[];
  /**
   * `signed-link`: the route takes no key (`presets` is empty); the link's signature, checked by
   * the route itself, authorizes the request. `trial-token`: the route takes a scenario trial's
   * token (`presets` is empty), checked by the route itself; a project key is refused (403).
   * Otherwise a Bearer key of one of `presets`.
   */
  auth?: 'signed-link' | 'trial-token';
}
