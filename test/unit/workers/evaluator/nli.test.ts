import { describe, expect, it } from 'vitest';
import { createSupportModel, nliLabelIndex } from '../../../../workers/evaluator/nli';
import { texts, tinyRuntime, TINY_MODEL_IDS } from '../../evaluator/tiny';

const nli = createSupportModel({ ...tinyRuntime(), model: { id: TINY_MODEL_IDS.nli, dtype: 'fp32' } });
const { premise, entailed, partly, unrelated, contradicted } = texts.support;
const pair = (hypothesis: string) => ({ premise, hypothesis });

describe('NLI support (tiny overlap + negation model through transformers.js)', () => {
  it('gives an entailed text a higher "full" than an unrelated one, which is mostly "partial"', async () => {
    const [e, u] = await nli.support([pair(entailed), pair(unrelated)]);
    expect(e!.full).toBeGreaterThan(u!.full);
    expect(e!.full).toBeGreaterThan(Math.max(e!.partial, e!.none));
    expect(u!.partial).toBeGreaterThan(Math.max(u!.full, u!.none));
  });

  it('maps contradiction to "none"', async () => {
    const [c] = await nli.support([pair(contradicted)]);
    expect(c!.none).toBeGreaterThan(Math.max(c!.full, c!.partial));
  });

  it('ranks a partly supported text between the entailed and the unrelated one', async () => {
    const [e, p, u] = await nli.support([pair(entailed), pair(partly), pair(unrelated)]);
    expect(p!.full).toBeLessThan(e!.full);
    expect(p!.full).toBeGreaterThan(u!.full);
  });

  it('returns probabilities that sum to one', async () => {
    for (const s of await nli.support([pair(entailed), pair(contradicted)])) {
      expect(s.full + s.partial + s.none).toBeCloseTo(1, 6);
    }
  });

  it('reads the label order from config.json: two models with different id2label orders agree', async () => {
    const reordered = createSupportModel({
      ...tinyRuntime(),
      model: { id: TINY_MODEL_IDS.nliReordered, dtype: 'fp32' },
    });
    const pairs = [pair(entailed), pair(unrelated), pair(contradicted)];
    const [a, b] = [await nli.support(pairs), await reordered.support(pairs)];
    a.forEach((s, i) => {
      expect(b[i]!.full).toBeCloseTo(s.full, 6);
      expect(b[i]!.partial).toBeCloseTo(s.partial, 6);
      expect(b[i]!.none).toBeCloseTo(s.none, 6);
    });
  });

  it('finds labels by name whatever their case and order', () => {
    expect(nliLabelIndex('m', { 0: 'CONTRADICTION', 1: 'ENTAILMENT', 2: 'NEUTRAL' })).toEqual({
      contradiction: 0,
      entailment: 1,
      neutral: 2,
    });
    expect(nliLabelIndex('m', { 0: 'entailment', 1: 'neutral', 2: 'contradiction' })).toEqual({
      entailment: 0,
      neutral: 1,
      contradiction: 2,
    });
  });

  it('refuses a model that is not NLI, naming it', async () => {
    const wrong = createSupportModel({ ...tinyRuntime(), model: { id: TINY_MODEL_IDS.reranker, dtype: 'fp32' } });
    await expect(wrong.support([pair(entailed)])).rejects.toThrow(/"tiny\/reranker" is not an NLI model/);
  });
});
