// The real all-MiniLM-L6-v2 (fetched by `npm run models -- --real`) loaded in Node through the
// app's own embedder adapter; null-safe lookups so benches fall back loudly when it is absent.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REAL, realModelsDir } from '../../scripts/real-models/catalogue';
import { createEmbedder, type LoadedEmbedder } from '../../workers/evaluator/embedder';

export type RealVariant = 'fp32' | 'q8';

/** The real embedder's folder when its weights are on this machine, else null. */
export function realEmbedderDir(): string | null {
  const dir = join(realModelsDir(), REAL.embedder);
  return existsSync(join(dir, 'onnx', 'model.onnx')) && existsSync(join(dir, 'onnx', 'model_quantized.onnx'))
    ? dir
    : null;
}

export function createRealEmbedder(variant: RealVariant): LoadedEmbedder {
  if (!realEmbedderDir()) throw new Error(`the real embedder is not in ${realModelsDir()}`);
  return createEmbedder({
    model: { id: REAL.embedder, dtype: variant },
    source: 'local',
    localModelPath: realModelsDir() + '/',
  });
}
