// globalSetup of the browser and real projects: build the production site and the e2e test
// build once per run, so every browser test file serves the same artefacts.
import { mkdirSync } from 'node:fs';
import { OUTPUT_DIR, buildE2E, buildProduction } from '../browser/harness';

// Each project loads its global set-up afresh; a mark on the process keeps `npm test` to one build.
const BUILT = '__selfragTestBuilds';

export default function setup(): void {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  if (process.env.SKIP_BUILD === '1') return; // local iteration on an existing build
  const g = globalThis as Record<string, unknown>;
  if (g[BUILT]) return;
  buildProduction();
  buildE2E();
  g[BUILT] = true;
}
