import { describe, expect, it } from 'vitest';
import { refineKnowledge } from '../../../../src/core/crag/refine';
import { decompose, recompose } from '../../../../src/core/crag/strips';
import { markerScorer, passage } from './fakes';

const opts = { stripThreshold: 0.25, stripTopK: 5, sentencesPerStrip: 2, source: 'retrieval' as const };

describe('knowledge strips', () => {
  it('keeps a passage of one or two sentences as a single strip', () => {
    expect(decompose('Only one sentence here.', 2)).toEqual(['Only one sentence here.']);
    expect(decompose('First one. Second one.', 1)).toEqual(['First one. Second one.']);
    expect(decompose('   ', 2)).toEqual([]);
  });

  it('splits longer passages into consecutive strips that cover it in order', () => {
    const text = 'S1 a. S2 b! S3 c? S4 d. S5 e.';
    expect(decompose(text, 2)).toEqual(['S1 a. S2 b!', 'S3 c? S4 d.', 'S5 e.']);
    expect(decompose(text, 3)).toEqual(['S1 a. S2 b! S3 c?', 'S4 d. S5 e.']);
  });

  it('cuts strips from the original text, keeping line breaks such as a heading', () => {
    expect(decompose('# Title\n\nFirst  sentence. Second one.\nThird.', 2)).toEqual([
      '# Title\n\nFirst  sentence.',
      'Second one.\nThird.',
    ]);
  });

  it('recomposes in original order whatever order the strips come in', () => {
    expect(
      recompose([
        { index: 2, text: 'c' },
        { index: 0, text: 'a' },
      ]),
    ).toBe('a\nc');
  });
});

describe('refineKnowledge (decompose, filter, recompose)', () => {
  it('drops only the strips below the threshold and keeps the rest in order', async () => {
    const text = 'Alpha HIGH one. Alpha two. Beta LOW one. Beta two. Gamma MID one. Gamma two.';
    const { score } = markerScorer({ HIGH: 0.9, MID: 0.3, LOW: 0.1 });
    const r = await refineKnowledge('q', [passage('d#0', text)], score, opts);
    expect(r.strips.map((s) => [s.index, s.kept, s.dropped])).toEqual([
      [0, true, undefined],
      [1, false, 'below-threshold'],
      [2, true, undefined],
    ]);
    expect(r.passages).toHaveLength(1);
    expect(r.passages[0]?.text).toBe('Alpha HIGH one. Alpha two.\nGamma MID one. Gamma two.');
    expect(r.passages[0]?.id).toBe('d#0');
  });

  it('keeps a strip scoring exactly at the threshold', async () => {
    const { score } = markerScorer({ EDGE: 0.25 });
    const r = await refineKnowledge('q', [passage('d#0', 'An EDGE case.')], score, opts);
    expect(r.strips[0]?.kept).toBe(true);
  });

  it('drops a passage whose strips are all irrelevant, and scores all strips in one batch', async () => {
    const { score, calls } = markerScorer({ HIGH: 0.9 }, 0.01);
    const r = await refineKnowledge(
      'q',
      [passage('a#0', 'Nothing useful.'), passage('b#0', 'A HIGH fact.')],
      score,
      opts,
    );
    expect(r.passages.map((p) => p.id)).toEqual(['b#0']);
    expect(calls).toHaveLength(1);
    expect(r.strips.map((s) => s.passageId)).toEqual(['a#0', 'b#0']);
  });

  it('keeps only the top-k strips of a passage, still in order', async () => {
    const text = 'A K7 a. A a. B K9 b. B b. C K8 c. C c.';
    const { score } = markerScorer({ K9: 0.9, K8: 0.8, K7: 0.7 });
    const r = await refineKnowledge('q', [passage('d#0', text)], score, { ...opts, stripTopK: 2 });
    expect(r.strips.map((s) => s.dropped)).toEqual(['beyond-top-k', undefined, undefined]);
    expect(r.passages[0]?.text).toBe('B K9 b. B b.\nC K8 c. C c.');
  });

  it('fails loudly when the evaluator returns the wrong number of scores', async () => {
    const bad = async () => [0.9];
    await expect(refineKnowledge('q', [passage('d#0', 'One. Two. Three.')], bad, opts)).rejects.toThrow(
      /1 scores for 2 knowledge strips/,
    );
  });
});
