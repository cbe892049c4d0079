import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    // Hooks start and stop servers: on a loaded machine that alone can take seconds.
    hookTimeout: 60_000,
    setupFiles: ['../../scripts/vitest-property-seed.ts'],
  },
});
