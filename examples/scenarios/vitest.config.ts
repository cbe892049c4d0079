import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'examples-scenarios',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    environment: 'node',
    // A ceiling for a hang, not a timing: the tests also run the built `svc` in child processes.
    testTimeout: 120_000,
    // The hook starts and closes a reference server: seconds on a loaded machine.
    hookTimeout: 60_000,
  },
});
