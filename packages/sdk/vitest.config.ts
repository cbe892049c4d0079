import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sdk',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    // Hooks start and close reference servers (under Bun, a Node child process each): seconds on a
    // loaded machine (up to ~5 s measured beside a load average of 13). The timeout is for a hang.
    hookTimeout: 60_000,
    setupFiles: ['../../scripts/vitest-property-seed.ts'],
  },
});
