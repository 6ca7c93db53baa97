import { describe, expect, it } from 'vitest';
import { createReranker } from '../../../../workers/evaluator/reranker';
import { texts, tinyRuntime, TINY_MODEL_IDS } from '../../evaluator/tiny';

const reranker = createReranker({ ...tinyRuntime(), model: { id: TINY_MODEL_IDS.reranker, dtype: 'fp32' } });
const passages = texts.passages.map((p) => p.text);

describe('cross-encoder relevance (tiny overlap model through transformers.js)', () => {
  it('scores the passage that answers the query above every unrelated one', async () => {
    for (const q of texts.queries) {
      const scores = await reranker.score(q.text, passages);
      const expected = texts.passages.findIndex((p) => p.id === q.expect);
      const others = scores.filter((_, i) => i !== expected);
      expect(scores[expected]!).toBeGreaterThan(Math.max(...others));
    }
  });

  it('reads the single logit as a probability (sigmoid), not a softmax stuck at 1', async () => {
    const scores = await reranker.score('bees honey nectar', passages);
    for (const s of scores) {
      expect(s).toBeGreaterThan(0);
      expect(s).toBeLessThan(1);
    }
    expect(scores[0]!).toBeGreaterThan(0.5);
    expect(Math.max(...scores.slice(1))).toBeLessThan(0.5);
  });

  it('grows with the number of query words the passage contains', async () => {
    const [one, two, three] = await reranker.score('bees nectar hive', [
      'bees fly',
      'bees collect nectar',
      'bees bring nectar to the hive',
    ]);
    expect(two!).toBeGreaterThan(one!);
    expect(three!).toBeGreaterThan(two!);
  });

  it('keeps input order across batches', async () => {
    const small = createReranker({
      ...tinyRuntime({ batchSize: 2 }),
      model: { id: TINY_MODEL_IDS.reranker, dtype: 'fp32' },
    });
    const q = texts.queries[0]!.text;
    expect(await small.score(q, passages)).toEqual(await reranker.score(q, passages));
  });

  it('names the model when it cannot be loaded', async () => {
    const missing = createReranker({ ...tinyRuntime(), model: { id: 'tiny/no-reranker' } });
    await expect(missing.score('q', ['p'])).rejects.toThrow(/relevance \(cross-encoder\) model "tiny\/no-reranker"/);
  });
});
