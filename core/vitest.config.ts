import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'core',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-database.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
