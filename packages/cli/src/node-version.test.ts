import { describe, expect, it } from 'vitest';
import { unsupportedNodeVersion } from './node-version.js';

describe('unsupportedNodeVersion', () => {
  it.each(['22.13.0', '22.20.1', '23.0.0', '24.9.0', '30.1.2'])('accepts Node.js %s', (version) => {
    expect(unsupportedNodeVersion(version)).toBeUndefined();
  });

  it.each(['20.20.2', '22.12.0', '21.99.0', '18.0.0'])('explains why Node.js %s is too old', (version) => {
    expect(unsupportedNodeVersion(version)).toBe(
      `svc requires Node.js 22.13 or later; this is Node.js ${version}.`,
    );
  });
});
