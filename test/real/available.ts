// Whether the real-model tier can run here. In CI a missing model is a failure, never a skip;
// elsewhere the tier is skipped with a banner that says how to get the models.
import { join } from 'node:path';
import { HOW_TO_FETCH, REAL, realModelsDir } from '../../scripts/real-models/catalogue';
import { realModelsReady } from '../../scripts/real-models/fetch';

export const REAL_DIR = realModelsDir();
export const realPath = (key: keyof typeof REAL) => join(REAL_DIR, REAL[key]);

/** True when the tier can run; throws in CI when it cannot; warns loudly otherwise. */
export function realModelsAvailable(suite: string): boolean {
  if (realModelsReady()) return true;
  const message = `The real models are missing from ${REAL_DIR}, so "${suite}" cannot run. ${HOW_TO_FETCH}`;
  if (process.env.CI) throw new Error(message);
  console.warn(`\n${'!'.repeat(100)}\n!!! SKIPPED: ${message}\n${'!'.repeat(100)}\n`);
  return false;
}
