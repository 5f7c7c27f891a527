import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'launcher',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../core/test/support/global-database.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
