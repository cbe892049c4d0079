/**
 * vitest setup file of every project: makes a failed property test reproducible.
 *
 * fast-check prints the `seed` and `path` of a failure ("Property failed after N tests
 * { seed: …, path: … }"). Run the same file again with them in the environment to replay exactly
 * that case, on the same runtime:
 *
 *   FC_SEED=<seed> FC_PATH=<path> npx -y pnpm@10.34.8 exec vitest run <file>
 *
 * Without `FC_SEED`, each run draws a new seed, as fast-check does by default.
 */
import fc from 'fast-check';

const seed = process.env.FC_SEED;
if (seed !== undefined && seed !== '') {
  const value = Number(seed);
  if (!Number.isSafeInteger(value))
    throw new TypeError(`FC_SEED must be an integer; got ${JSON.stringify(seed)}`);
  const path = process.env.FC_PATH;
  fc.configureGlobal({ seed: value, ...(path ? { path } : {}) });
}
