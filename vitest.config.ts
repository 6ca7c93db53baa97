import { defineConfig } from 'vitest/config';

// Three tiers (docs/testing.md), run in turn: `unit` (Node, tiny models and doubles), `browser` (the
// built site in headless Chromium, tiny models and doubles), then `real` (real weights, in Node and in
// Chromium). Only `real` fetches the real models. The order is explicit (sequence.groupOrder): Vitest
// would otherwise run a project without file parallelism last, after `real`.
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
          globalSetup: ['test/setup/tiny-models.ts'],
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
          sequence: { groupOrder: 1 },
          globalSetup: ['test/setup/tiny-models.ts', 'test/setup/builds.ts'],
        },
      },
      {
        // Real weights: in Node, and the built app in Chromium (its model pack borrows the tiny reranker and NLI model).
        test: {
          name: 'real',
          include: ['test/real/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          globalSetup: ['test/setup/tiny-models.ts', 'test/setup/real-models.ts', 'test/setup/builds.ts'],
        },
      },
    ],
  },
});
