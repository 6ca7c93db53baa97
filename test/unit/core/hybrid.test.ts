import { describe, expect, it, vi } from 'vitest';
import type { FusedHit } from '../../../src/core/fusion';
import {
  GENERATOR_RERANK_CANDIDATES,
  hybridRetrieve,
  RERANK_CANDIDATES,
  RERANK_WEIGHT,
  type HybridPorts,
} from '../../../src/core/hybrid';
import type { Passage } from '../../../src/core/ports';
import { cachedJudge, cachedScorer } from '../../../src/core/relevance-cache';

const passage = (i: number): Passage => ({ id: `d#${i}`, docId: 'd', title: 'T', text: `text ${i}`, index: i });

function ports(over: Partial<HybridPorts> = {}) {
  const search = vi.fn(async (req: { limit: number; mode: string; vector: Float32Array | null }) =>
    Array.from(
      { length: req.limit },
      (_, i): FusedHit => ({ id: `d#${i}`, score: 1 / (i + 1), lexicalRank: i + 1, denseRank: req.limit - i }),
    ),
  );
  const embedQuery = vi.fn(async () => new Float32Array([1, 0]));
  const p: HybridPorts = {
    embedQuery,
    search,
    passages: async (ids) => ids.map((id) => passage(Number(id.split('#')[1]))),
    ...over,
  };
  return { p, search, embedQuery };
}

describe('hybridRetrieve', () => {
  it('re-ranks the fused candidates in ONE cross-encoder call and keeps each stage’s rank', async () => {
    // The cross-encoder is confident about higher passage numbers (fused scores are 1/(i+1)).
    const rerank = vi.fn(async (_q: string, texts: string[]) =>
      texts.map((t) => (Number(t.split(' ')[1]) >= 17 ? 0.9 + Number(t.split(' ')[1]) / 1000 : 0.01)),
    );
    const { p, search } = ports({ rerank });
    const out = await hybridRetrieve(p, 'question', 3, { search: 'both', rerank: true });
    expect(search).toHaveBeenCalledWith(
      expect.objectContaining({ mode: 'both', limit: RERANK_CANDIDATES, text: 'question' }),
    );
    expect(rerank).toHaveBeenCalledTimes(1);
    expect(rerank.mock.calls[0]![1]).toHaveLength(RERANK_CANDIDATES);
    // The first stage's best (fused score 1) still counts: it keeps its place among the confident ones.
    expect(out.map((x) => x.id)).toEqual(['d#0', 'd#17', 'd#18']);
    expect(out[1]!.score).toBeCloseTo(RERANK_WEIGHT * 0.917 + (1 - RERANK_WEIGHT) * (1 / 18));
    expect(out[1]!.ranks).toEqual({ lexical: 18, dense: 3, rerank: 0.917 });
  });

  it('mixes the cross-encoder with the first stage, so an unsure cross-encoder cannot bury the first stage’s clear winner', async () => {
    // Near-equal probabilities, slightly favouring passage 1 over passage 0 (fused score 1 vs 0.5).
    const { p } = ports({ rerank: async (_q, texts) => texts.map((t) => (t === 'text 1' ? 0.62 : 0.6)) });
    expect((await hybridRetrieve(p, 'q', 2, { search: 'both', rerank: true })).map((x) => x.id)).toEqual([
      'd#0',
      'd#1',
    ]);
  });

  it("the loaded generator's judge re-ranks the best 10, reading whole passages, where the settings name it", async () => {
    const rerank = vi.fn(async (_q: string, texts: string[]) => texts.map(() => 0.5));
    // The generator says passage 7 answers (p(Yes) 0.95), the rest do not.
    const judge = vi.fn(async (_q: string, ps: Passage[]) => ps.map((x) => (x.id === 'd#7' ? 0.95 : 0.05)));
    const { p, search } = ports({ rerank, judge });
    const out = await hybridRetrieve(p, 'question', 3, { search: 'both', rerank: true, reranker: 'generator' });
    expect(search.mock.calls[0]![0].limit).toBe(GENERATOR_RERANK_CANDIDATES);
    expect(rerank).not.toHaveBeenCalled();
    expect(judge).toHaveBeenCalledTimes(1);
    // Titles and ids go to the judge, not only the texts (its prompt names the document).
    expect(judge.mock.calls[0]![1].map((x) => [x.id, x.title])).toEqual(
      Array.from({ length: GENERATOR_RERANK_CANDIDATES }, (_, i) => [`d#${i}`, 'T']),
    );
    expect(out.map((x) => x.id)).toEqual(['d#7', 'd#0', 'd#1']);
    expect(out[0]!.ranks).toMatchObject({ rerank: 0.95, rerankBy: 'generator' });
  });

  it('falls back to the cross-encoder over its 20 when the generator cannot judge, and re-ranks nothing when re-rank is off', async () => {
    const rerank = vi.fn(async (_q: string, texts: string[]) => texts.map(() => 0.5));
    const { p, search } = ports({ rerank });
    await hybridRetrieve(p, 'q', 3, { search: 'both', rerank: true, reranker: 'generator' });
    expect(search.mock.calls[0]![0].limit).toBe(RERANK_CANDIDATES);
    expect(rerank).toHaveBeenCalledTimes(1);
    const judge = vi.fn(async (_q: string, ps: Passage[]) => ps.map(() => 1));
    const off = ports({ rerank, judge });
    await hybridRetrieve(off.p, 'q', 3, { search: 'both', rerank: false, reranker: 'generator' });
    expect(judge).not.toHaveBeenCalled();
    expect(off.search.mock.calls[0]![0].limit).toBe(3);
  });

  it("keeps the fused order when the generator's judge fails", async () => {
    const { p } = ports({ judge: async () => Promise.reject(new Error('the model was unloaded')) });
    const out = await hybridRetrieve(p, 'q', 2, { search: 'both', rerank: true, reranker: 'generator' });
    expect(out.map((x) => [x.id, x.ranks?.rerank])).toEqual([
      ['d#0', undefined],
      ['d#1', undefined],
    ]);
  });

  it('the judge remembers each (search, passage) it judged, so a step that searches again asks only about new passages', async () => {
    const judge = vi.fn(async (_q: string, ps: Passage[]) => ps.map((x) => Number(x.id.split('#')[1]) / 10));
    const cached = cachedJudge(judge);
    expect(await cached('q', [passage(1), passage(2)])).toEqual([0.1, 0.2]);
    expect(await cached('q', [passage(2), passage(3), passage(3)])).toEqual([0.2, 0.3, 0.3]);
    expect(judge.mock.calls.map((c) => c[1].map((x) => x.id))).toEqual([['d#1', 'd#2'], ['d#3']]);
    // Another search is another question to the judge.
    await cached('q2', [passage(1)]);
    expect(judge).toHaveBeenCalledTimes(3);
  });

  it('without re-rank hands back the fused order, k long, and asks the index for k only', async () => {
    const rerank = vi.fn();
    const { p, search } = ports({ rerank });
    const out = await hybridRetrieve(p, 'question', 2, { search: 'both', rerank: false });
    expect(rerank).not.toHaveBeenCalled();
    expect(search.mock.calls[0]![0].limit).toBe(2);
    expect(out.map((x) => [x.id, x.ranks])).toEqual([
      ['d#0', { lexical: 1, dense: 2 }],
      ['d#1', { lexical: 2, dense: 1 }],
    ]);
  });

  it('searching by words embeds nothing', async () => {
    const { p, embedQuery, search } = ports();
    await hybridRetrieve(p, 'ERR_QX_7731', 3, { search: 'words', rerank: false });
    expect(embedQuery).not.toHaveBeenCalled();
    expect(search.mock.calls[0]![0]).toMatchObject({ vector: null, mode: 'words' });
  });

  it('keeps the fused order when the cross-encoder fails, but stops on abort', async () => {
    const { p } = ports({ rerank: async () => Promise.reject(new Error('model failed to load')) });
    expect((await hybridRetrieve(p, 'q', 2, { search: 'both', rerank: true })).map((x) => x.id)).toEqual([
      'd#0',
      'd#1',
    ]);
    const ctrl = new AbortController();
    const { p: p2 } = ports({
      rerank: async () => {
        ctrl.abort();
        throw new DOMException('aborted', 'AbortError');
      },
    });
    await expect(hybridRetrieve(p2, 'q', 2, { search: 'both', rerank: true }, ctrl.signal)).rejects.toThrow(/aborted/);
  });

  it('without the embedding model, words and meaning falls back to words alone; meaning alone says why it cannot', async () => {
    const embedQuery = vi.fn(async () => {
      throw new Error('the embedding model could not load');
    });
    const { p, search } = ports({ embedQuery });
    expect((await hybridRetrieve(p, 'q', 2, { search: 'both', rerank: false })).map((x) => x.id)).toEqual([
      'd#0',
      'd#1',
    ]);
    expect(search).toHaveBeenCalledWith(expect.objectContaining({ mode: 'words', vector: null }));
    await expect(hybridRetrieve(p, 'q', 2, { search: 'meaning', rerank: false })).rejects.toThrow(/could not load/);
  });

  it('returns nothing for an empty question', async () => {
    const { p, search } = ports();
    expect(await hybridRetrieve(p, '  ', 3, { search: 'both', rerank: true })).toEqual([]);
    expect(search).not.toHaveBeenCalled();
  });
});

describe('cachedScorer', () => {
  it('scores a (question, passage) pair once: the re-rank’s scores serve ISREL and CRAG', async () => {
    const model = vi.fn(async (_q: string, texts: string[]) => texts.map((t) => t.length / 10));
    const score = cachedScorer(model);
    // The retriever's re-rank of 4 candidates…
    expect(await score('q', ['aa', 'bbb', 'c', 'dddd'])).toEqual([0.2, 0.3, 0.1, 0.4]);
    // …then ISREL over the 2 passages kept and CRAG over the same: no model call.
    expect(await score('q', ['dddd', 'bbb'])).toEqual([0.4, 0.3]);
    expect(await score('q', ['bbb', 'dddd'])).toEqual([0.3, 0.4]);
    expect(model).toHaveBeenCalledTimes(1);
    // A new pair is scored alone; the same text for another question is a new pair.
    expect(await score('q', ['aa', 'eeeee', 'eeeee'])).toEqual([0.2, 0.5, 0.5]);
    expect(await score('other', ['aa'])).toEqual([0.2]);
    expect(model.mock.calls.slice(1).map((c) => [c[0], c[1]])).toEqual([
      ['q', ['eeeee']],
      ['other', ['aa']],
    ]);
    expect(score.stats()).toEqual({ scored: 6, reused: 6 });
  });

  it('forgets the oldest pairs beyond its capacity and still answers every text', async () => {
    const model = vi.fn(async (_q: string, texts: string[]) => texts.map((t) => t.length));
    const score = cachedScorer(model, 2);
    expect(await score('q', ['a', 'bb', 'ccc'])).toEqual([1, 2, 3]);
    expect(await score('q', ['ccc'])).toEqual([3]);
  });

  it('refuses a model answer of the wrong length', async () => {
    const score = cachedScorer(async () => [0.5]);
    await expect(score('q', ['a', 'b'])).rejects.toThrow(/1 scores for 2 texts/);
  });
});
