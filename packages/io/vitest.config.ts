import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'io',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    setupFiles: ['../../scripts/vitest-property-seed.ts'],
  },
});
