/**
 * The Node.js versions `svc` runs on: `node:sqlite` is available without a flag from 22.13.
 * @module
 */

/** The oldest supported Node.js version, as `[major, minor]`. */
export const MINIMUM_NODE_VERSION = [22, 13] as const;

/** A message explaining why `version` (such as `process.versions.node`) is too old, or `undefined`. */
export function unsupportedNodeVersion(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [minMajor, minMinor] = MINIMUM_NODE_VERSION;
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return undefined;
  return `svc requires Node.js ${minMajor}.${minMinor} or later; this is Node.js ${version}.`;
}
