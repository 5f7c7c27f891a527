import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'engine',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    // Model loading and real swaps take seconds on 2 cores.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
