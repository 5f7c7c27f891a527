import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'examples',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    // The create-and-wait test runs the real service, whose test support clones this database.
    globalSetup: ['../core/test/support/global-database.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
