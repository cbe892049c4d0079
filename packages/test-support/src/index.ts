/**
 * `@svc-run/test-support`: the test support that the SDK's, the server's and the CLI's tests
 * share, kept once: `waitUntil` (waiting without time margins) and `spawnSource` (running the
 * TypeScript sources in a child process). A private workspace package for tests only: never
 * built, bundled or published.
 * @module
 */
export { type SpawnSourceOptions, spawnSource, TS_SOURCE_HOOKS } from './spawn-source.js';
export { waitUntil } from './wait-until.js';
