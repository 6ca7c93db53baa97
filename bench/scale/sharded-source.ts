// A synthetic corpus for the sharded bench that is never held in memory: embedding-like
// 384-d vectors (vectors.ts) and Zipf text (text.ts), regenerated from the same seeds on
// every pass, so the writer's second pass repeats its first and the bench's memory does
// not grow with the corpus.
import type { ShardedRow, ShardedSource } from '../../scripts/sharded/write-sharded';
import { passageTexts, vocabulary } from './text';
import { embeddingModel } from './vectors';

export const DIM = 384;
const vocab = vocabulary(40000, 1);

export function syntheticSource(n: number, list?: (v: Float32Array) => number): ShardedSource {
  return {
    rowCount: n,
    async *rows(): AsyncGenerator<ShardedRow> {
      const model = embeddingModel(DIM, 1, 101);
      const next = passageTexts(n, 11, vocab);
      for (let i = 0; i < n; i++) {
        const embedding = new Float32Array(DIM);
        model.draw(embedding);
        const row: ShardedRow = {
          id: `p${i}`,
          docId: `d${Math.floor(i / 10)}`,
          title: `Document ${Math.floor(i / 10)}`,
          text: next(),
          index: i % 10,
          embedding,
        };
        if (list) row.list = list(embedding);
        yield row;
      }
    },
  };
}

/** Questions: fresh draws from the same topics (not copies of stored rows). */
export function syntheticQueries(q: number): Float32Array[] {
  const model = embeddingModel(DIM, 1, 202);
  return Array.from({ length: q }, () => {
    const v = new Float32Array(DIM);
    model.draw(v);
    return v;
  });
}
