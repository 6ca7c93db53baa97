// CRAG's retrieval evaluator as shipped (a sigmoid cross-encoder) with the tiny reranker:
// logit = 2 · (question content words found in the text) − 3. With the default thresholds
// (upper 0.5, lower 0.05, strips 0.25): 0 shared words → σ(−3) ≈ 0.047 → Incorrect,
// 1 → σ(−1) ≈ 0.27 → Ambiguous (and a strip is kept), 2 or more → σ(1) ≈ 0.73 → Correct.
import { describe, expect, it } from 'vitest';
import { createCorrector } from '../../../../src/core/crag/corrector';
import { createReranker } from '../../../../workers/evaluator/reranker';
import { tinyRuntime, TINY_MODEL_IDS } from '../../evaluator/tiny';
import { passage, scriptedWriter, tableRetriever } from './fakes';

const reranker = createReranker({ ...tinyRuntime(), model: { id: TINY_MODEL_IDS.reranker, dtype: 'fp32' } });
const score = (q: string, texts: string[]) => reranker.score(q, texts);
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const Q = 'Which place has the largest tidal range?'; // content words: place, largest, tidal, range

describe('CRAG with the tiny cross-encoder', () => {
  it('Correct: keeps the tidal strip, drops the honeybee strip, and discards the unrelated passage', async () => {
    const mixed = passage(
      'mix#0',
      'Tides rise twice a day. The Bay of Fundy has the largest tidal range. Bees make honey. Honey is stored in the comb.',
    );
    const bees = passage('bees#0', 'Workers collect nectar and pollen.');
    const r = await createCorrector({ score, writer: scriptedWriter([]), retriever: tableRetriever({}) }).correct(Q, [
      mixed,
      bees,
    ]);
    expect(r.action).toBe('correct');
    expect(r.evaluated?.map((e) => e.score)).toEqual([expect.closeTo(sigmoid(3), 5), expect.closeTo(sigmoid(-3), 5)]);
    expect(r.strips?.map((s) => [s.passageId, s.kept])).toEqual([
      ['mix#0', true],
      ['mix#0', false],
    ]);
    expect(r.passages.map((p) => p.text)).toEqual([
      'Tides rise twice a day. The Bay of Fundy has the largest tidal range.',
    ]);
  });

  it('Ambiguous at one shared word; Incorrect at none, then the rewrite finds the answer', async () => {
    const one = passage('one#0', 'The moon pulls on the ocean at every place.');
    const corrector = (replies: string[], table: Record<string, ReturnType<typeof passage>[]>) =>
      createCorrector({ score, writer: scriptedWriter(replies), retriever: tableRetriever(table) });
    const amb = await corrector(['largest tidal range'], {}).correct(Q, [one]);
    expect(amb.action).toBe('ambiguous');
    expect(amb.evaluated?.[0]?.score).toBeCloseTo(sigmoid(-1), 5);

    const fundy = passage('fundy#0', 'The Bay of Fundy has the largest tidal range in the world.');
    const inc = await corrector(['largest tidal range'], { 'largest tidal range': [fundy] }).correct(Q, [
      passage('bees#0', 'Bees make honey.'),
    ]);
    expect(inc.action).toBe('incorrect');
    expect(inc.passages.map((p) => p.id)).toEqual(['fundy#0']);
  });
});
