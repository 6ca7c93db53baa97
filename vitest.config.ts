import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './test/setup/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
          environment: 'node',
          // A hang guard, not a speed limit: model-loading tests share 2 cores with the browser suite.
          testTimeout: 60_000,
          globalSetup: ['test/setup/tiny-models.ts', 'test/setup/real-models.ts'],
        },
      },
      {
        // Browser tests drive the system Chromium through playwright-core against the built app.
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          globalSetup: ['test/setup/tiny-models.ts', 'test/setup/real-models.ts', 'test/setup/builds.ts'],
        },
      },
    ],
  },
});
