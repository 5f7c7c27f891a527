import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'contract',
      'core',
      'engine',
      'server',
      'worker',
      'launcher',
      'sdk',
      'examples',
      // Checks of the workspace as a whole, such as its import boundaries.
      { test: { name: 'workspace', include: ['test/**/*.test.ts'] } },
    ],
  },
});
