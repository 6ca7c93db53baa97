import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuse, RRF_K, single } from '../../../src/core/fusion';

const hits = (...ids: string[]) => ids.map((id, i) => ({ id, score: 10 - i }));

describe('reciprocal rank fusion', () => {
  it('scores each passage by 1/(60 + rank) summed over the lists that found it, and reports both ranks', () => {
    const out = fuse(hits('a', 'b', 'c'), hits('c', 'd'), { method: 'rrf', limit: 10 });
    const byId = new Map(out.map((h) => [h.id, h]));
    expect(byId.get('c')).toMatchObject({ lexicalRank: 3, denseRank: 1, score: 1 / (RRF_K + 3) + 1 / (RRF_K + 1) });
    expect(byId.get('a')).toMatchObject({ lexicalRank: 1, score: 1 / (RRF_K + 1) });
    expect(byId.get('a')?.denseRank).toBeUndefined();
    expect(byId.get('d')).toMatchObject({ denseRank: 2, score: 1 / (RRF_K + 2) });
    // Found by both beats first in one list only.
    expect(out.map((h) => h.id)).toEqual(['c', 'a', 'b', 'd']);
  });

  it('breaks ties by the better single rank, then by id, whatever the input order', () => {
    // a is lexical #1, x is dense #1: same RRF score; equal best rank → id order.
    expect(fuse(hits('a'), hits('x'), { method: 'rrf', limit: 2 }).map((h) => h.id)).toEqual(['a', 'x']);
    expect(fuse(hits('x'), hits('a'), { method: 'rrf', limit: 2 }).map((h) => h.id)).toEqual(['a', 'x']);
  });

  it('keeps the first rank of an id a list repeats, and cuts to the limit', () => {
    const out = fuse(hits('a', 'a', 'b'), [], { method: 'rrf', limit: 1 });
    expect(out).toEqual([{ id: 'a', score: 1 / (RRF_K + 1), lexicalRank: 1, lexicalScore: 10 }]);
    expect(fuse(hits('a'), hits('b'), { limit: 0 })).toEqual([]);
  });

  it('is symmetric in its two lists and never loses a candidate below the limit (property)', () => {
    const list = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { maxLength: 7 });
    fc.assert(
      fc.property(list, list, (l, d) => {
        const ab = fuse(hits(...l), hits(...d), { method: 'rrf', limit: 20 });
        const ba = fuse(hits(...d), hits(...l), { method: 'rrf', limit: 20 });
        expect(ab.map((h) => h.id)).toEqual(ba.map((h) => h.id));
        expect(new Set(ab.map((h) => h.id))).toEqual(new Set([...l, ...d]));
        for (let i = 1; i < ab.length; i++) expect(ab[i - 1]!.score).toBeGreaterThanOrEqual(ab[i]!.score);
      }),
    );
  });
});

describe('weighted sum', () => {
  it('mixes the lexical score (BM25 / ideal, 0..1) and the cosine by the dense weight, a list that missed counting 0', () => {
    const lexical = [
      { id: 'a', score: 0.9 },
      { id: 'b', score: 0.2 },
      { id: 'c', score: 0.1 },
    ];
    const dense = [
      { id: 'c', score: 0.8 },
      { id: 'a', score: 0.6 },
      { id: 'd', score: 0.5 },
    ];
    const out = fuse(lexical, dense, { method: 'weighted', limit: 10, denseWeight: 0.5 });
    const s = new Map(out.map((h) => [h.id, h.score]));
    expect(s.get('a')).toBeCloseTo(0.5 * 0.9 + 0.5 * 0.6);
    expect(s.get('b')).toBeCloseTo(0.5 * 0.2);
    expect(s.get('c')).toBeCloseTo(0.5 * 0.1 + 0.5 * 0.8);
    expect(s.get('d')).toBeCloseTo(0.5 * 0.5);
    expect(out.map((h) => h.id)).toEqual(['a', 'c', 'd', 'b']);
    expect(out[0]).toMatchObject({ lexicalRank: 1, denseRank: 2 });
    // All weight on meaning: the dense order.
    expect(fuse(lexical, dense, { method: 'weighted', limit: 3, denseWeight: 1 }).map((h) => h.id)).toEqual([
      'c',
      'a',
      'd',
    ]);
  });

  it('keeps a passage the words find with certainty above passages the embedder ranks alike (the identifier case)', () => {
    // The embedder cannot read the code: near-equal cosines in arbitrary order; BM25 / ideal is 1 for the passage holding it.
    const dense = ['x', 'y', 'z', 'gold'].map((id, i) => ({ id, score: 0.84 - i * 0.01 }));
    const lexical = [{ id: 'gold', score: 1 }, ...['x', 'y', 'z'].map((id) => ({ id, score: 0.15 }))];
    expect(fuse(lexical, dense, { method: 'weighted', limit: 1 })[0]?.id).toBe('gold');
    // Reciprocal rank fusion lets a passage found second by both lists win instead.
    expect(fuse(lexical, dense, { method: 'rrf', limit: 1 })[0]?.id).toBe('x');
  });

  it("keeps the words' order among passages past the ideal score (a long question's terms, several in one passage)", () => {
    // Words alone rank a > b > c; all three pass the ideal (1), which capping would have tied.
    const lexical = [
      { id: 'a', score: 4 },
      { id: 'b', score: 2.5 },
      { id: 'c', score: 1.2 },
    ];
    const dense = [
      { id: 'c', score: 0.62 },
      { id: 'b', score: 0.61 },
      { id: 'a', score: 0.6 },
    ];
    expect(fuse(lexical, dense, { method: 'weighted', limit: 3 }).map((h) => h.id)).toEqual(['a', 'b', 'c']);
    // Weak word matches (below the ideal) are not stretched to 1: a clear meaning match wins there.
    const weak = lexical.map((h) => ({ ...h, score: h.score / 20 }));
    const clear = [
      { id: 'c', score: 0.8 },
      { id: 'b', score: 0.6 },
      { id: 'a', score: 0.4 },
    ];
    expect(fuse(weak, clear, { method: 'weighted', limit: 3 })[0]?.id).toBe('c');
  });

  it('clamps scores outside 0..1 (a negative cosine counts as nothing)', () => {
    const out = fuse([{ id: 'a', score: 3 }], [{ id: 'b', score: -0.4 }], { method: 'weighted', limit: 5 });
    expect(out.map((h) => [h.id, h.score])).toEqual([
      ['a', 0.5],
      ['b', 0],
    ]);
  });
});

describe('a single list', () => {
  it('reports its own ranks and scores', () => {
    expect(single(hits('a', 'b'), 'dense', 1)).toEqual([{ id: 'a', score: 10, denseRank: 1, denseScore: 10 }]);
    expect(single(hits('a', 'b'), 'lexical', 5).map((h) => h.lexicalRank)).toEqual([1, 2]);
  });
});
