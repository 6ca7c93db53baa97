// globalSetup of the browser project: build the production site and the e2e test
// build once per run, so every browser test file serves the same artefacts.
import { mkdirSync } from 'node:fs';
import { OUTPUT_DIR, buildE2E, buildProduction } from '../browser/harness';

export default function setup(): void {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  if (process.env.SKIP_BUILD === '1') return; // local iteration on an existing build
  buildProduction();
  buildE2E();
}
