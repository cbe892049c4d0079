import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'examples-scenarios',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    // The hook starts and closes a reference server: seconds on a loaded machine.
    hookTimeout: 60_000,
  },
});
