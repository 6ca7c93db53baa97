// CRAG conformance: the retrieval actions (§4.3) and the knowledge-strip selection (§4.4,
// Appendix B.2, select_relevants) against the restatement in reference.ts, with ties at
// every threshold and equal scores drawn on purpose.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyRetrieval } from '../../../src/core/crag/action';
import { refineKnowledge } from '../../../src/core/crag/refine';
import { DEFAULT_CRAG_SETTINGS, type StripPool } from '../../../src/core/crag/settings';
import type { ScoredPassage } from '../../../src/core/ports';
import { refCragAction, refSelectStrips } from './reference';

// Scores from a coarse grid, so equal scores and scores exactly at a threshold are common.
const grid = fc.integer({ min: 0, max: 20 }).map((k) => k / 20);

describe('CRAG retrieval actions agree with the paper', () => {
  it('Correct above the upper threshold, Incorrect when all are below the lower, Ambiguous otherwise; ties at either threshold included', () => {
    fc.assert(
      fc.property(fc.array(grid, { maxLength: 6 }), grid, grid, (scores, a, b) => {
        const [lower, upper] = a <= b ? [a, b] : [b, a];
        expect(classifyRetrieval(scores, upper, lower)).toBe(refCragAction(scores, upper, lower));
      }),
      { numRuns: 3000 },
    );
    // The boundaries themselves: "higher than" and "below" are strict.
    expect(classifyRetrieval([0.5], 0.5, 0.05)).toBe('ambiguous');
    expect(classifyRetrieval([0.05], 0.5, 0.05)).toBe('ambiguous');
    expect(classifyRetrieval([], 0.5, 0.05)).toBe('incorrect');
  });
});

describe('CRAG knowledge-strip selection agrees with the reference', () => {
  const passage = (pi: number, sentences: number): ScoredPassage => ({
    id: `d${pi}#0`,
    docId: `d${pi}`,
    title: `D${pi}`,
    text: Array.from({ length: sentences }, (_, si) => `Passage ${pi} sentence ${si} says something.`).join(' '),
    index: 0,
    score: 1,
  });

  for (const pool of ['per-passage', 'across-passages'] as StripPool[]) {
    it(`keeps the same strips as the restated select_relevants (${pool}), equal scores and scores at the threshold included`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }),
          fc.integer({ min: 1, max: 4 }),
          fc.integer({ min: 1, max: 6 }),
          grid,
          fc.array(grid, { minLength: 40, maxLength: 40 }),
          async (sizes, sentencesPerStrip, stripTopK, stripThreshold, draws) => {
            const passages = sizes.map((n, pi) => passage(pi, n));
            let i = 0;
            const scoreOf = new Map<string, number>();
            const r = await refineKnowledge(
              'q',
              passages,
              async (_q, texts) =>
                texts.map((t) => {
                  if (!scoreOf.has(t)) scoreOf.set(t, draws[i++ % draws.length] ?? 0);
                  return scoreOf.get(t) ?? 0;
                }),
              { stripThreshold, stripTopK, sentencesPerStrip, stripPool: pool, source: 'retrieval' },
            );
            const pIndex = (id: string) => passages.findIndex((p) => p.id === id);
            const want = refSelectStrips(
              r.strips.map((s) => ({ passage: pIndex(s.passageId), index: s.index, score: s.score })),
              stripThreshold,
              stripTopK,
              pool,
            );
            const got = new Set(r.strips.filter((s) => s.kept).map((s) => `${pIndex(s.passageId)}:${s.index}`));
            expect(got).toEqual(want);
            // Every passage that kept a strip is in the result, in retrieval order, its kept strips in text order.
            const keptPassages = [...new Set([...got].map((k) => Number(k.split(':')[0])))].sort((a, b) => a - b);
            expect(r.passages.map((p) => pIndex(p.id))).toEqual(keptPassages);
          },
        ),
        { numRuns: 400 },
      );
    });
  }

  it('the default pools per passage (argued in settings.ts); across passages one strong passage can take every slot', async () => {
    expect(DEFAULT_CRAG_SETTINGS.stripPool).toBe('per-passage');
    const strong = passage(0, 6);
    const weaker = passage(1, 2);
    const score = async (_q: string, texts: string[]) => texts.map((t) => (t.startsWith('Passage 0') ? 0.9 : 0.6));
    const opts = { stripThreshold: 0.25, stripTopK: 3, sentencesPerStrip: 2, source: 'retrieval' as const };
    const per = await refineKnowledge('q', [strong, weaker], score, { ...opts, stripPool: 'per-passage' });
    const across = await refineKnowledge('q', [strong, weaker], score, { ...opts, stripPool: 'across-passages' });
    expect(per.passages.map((p) => p.id)).toEqual(['d0#0', 'd1#0']);
    expect(across.passages.map((p) => p.id)).toEqual(['d0#0']);
    expect(across.strips.find((s) => s.passageId === 'd1#0')?.dropped).toBe('beyond-top-k');
  });
});
