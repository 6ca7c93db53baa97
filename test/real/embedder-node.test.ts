// Real tier, Node: the embedder `npm run index` uses (workers/evaluator/embedder.ts over
// transformers.js and onnxruntime-node), loading the project's own ONNX conversion of the real
// all-MiniLM-L6-v2, gives the vectors sentence-transformers gives (test/fixtures/real/, written by
// scripts/real-models/reference-embeddings.py) on 50 sentences of every kind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL } from '../../scripts/real-models/catalogue';
import { createEmbedder } from '../../workers/evaluator/embedder';
import { REAL_DIR, realModelsAvailable } from './available';

const ref = JSON.parse(readFileSync(join(__dirname, '../fixtures/real/minilm-reference.json'), 'utf8')) as {
  sentences: string[];
  embeddings: number[][];
};
const cosines = (vs: Float32Array[]) => vs.map((v, i) => v.reduce((s, x, j) => s + x * ref.embeddings[i]![j]!, 0));

describe.runIf(realModelsAvailable('real embedder against sentence-transformers (Node)'))(
  'real all-MiniLM-L6-v2 in Node against sentence-transformers',
  () => {
    it('fp32 (what the indexer writes site corpora with) matches to cosine 0.999 on every sentence', async () => {
      const embedder = createEmbedder({
        model: { id: REAL.embedder, dtype: 'fp32' },
        source: 'local',
        localModelPath: REAL_DIR,
      });
      try {
        const c = cosines(await embedder.embed(ref.sentences));
        expect(c).toHaveLength(50);
        expect(Math.min(...c)).toBeGreaterThanOrEqual(0.999);
      } finally {
        await embedder.dispose();
      }
    });

    it('q8 (what the browser uses on WASM) stays close: every sentence at cosine 0.98 or more, 0.99 on average', async () => {
      const embedder = createEmbedder({
        model: { id: REAL.embedder, dtype: 'q8' },
        source: 'local',
        localModelPath: REAL_DIR,
      });
      try {
        const c = cosines(await embedder.embed(ref.sentences));
        expect(Math.min(...c)).toBeGreaterThanOrEqual(0.98);
        expect(c.reduce((a, b) => a + b) / c.length).toBeGreaterThanOrEqual(0.99);
      } finally {
        await embedder.dispose();
      }
    });
  },
);
