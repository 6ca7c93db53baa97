import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/core/decode';
import type { GeneratedSegment, RetrieveProbs, SegmentRequest } from '../../../src/core/ports';
import { rerank } from '../../../src/core/rerank';
import type { RetrievalMode } from '../../../src/core/types';
import { FakeRetriever, passage } from '../../doubles/fake-retriever';
import { ScriptedGenerator, scriptKey } from '../../doubles/scripted-generator';
import { bestTexts, rankWith, rel, settings, sup, use } from './helpers';

const Q = 'What is the boiling point of water?';
const pa = passage('pa', 'Water boils at 100 degrees Celsius at sea level.');
const pb = passage('pb', 'Water is a liquid.');
const both = () => new FakeRetriever(() => [pa, pb].map((p, i) => ({ ...p, score: 1 - i / 10 })));

describe('hard constraints', () => {
  // X: 0.95 + 0.15 + 0.5·1 = 1.60 but judged [No support / Contradictory];
  // Y: 0.60 + 0.70 + 0.5·0.5 = 1.55, supported.
  const script = () =>
    new ScriptedGenerator({
      segments: {
        [scriptKey([], 'pa')]: { text: 'X', rel: rel(0.95), sup: sup(0.1, 0.1, 0.8), use: use(5) },
        [scriptKey([], 'pb')]: { text: 'Y', rel: rel(0.6), sup: sup(0.6, 0.2, 0.2), use: use(4) },
        [scriptKey(['X'], null)]: { text: 'X2', use: use(5), done: true },
        [scriptKey(['Y'], null)]: { text: 'Y2', use: use(5), done: true },
      },
      retrieve: (req) =>
        req.previous.length === 0 ? { retrieval: 1, noRetrieval: 0 } : { retrieval: 0, noRetrieval: 1 },
    });
  const cfg = settings({ passagesPerStep: 2, maxDepth: 2, beamWidth: 1 });

  it('are off by default: the unsupported but relevant segment wins', async () => {
    const r = await decode(Q, { generator: script(), retriever: both() }, cfg, rankWith());
    expect(bestTexts(r)).toEqual(['X', 'X2']);
  });

  it('drop a candidate whose most likely support token is [No support / Contradictory], and never expand it', async () => {
    const gen = script();
    const r = await decode(Q, { generator: gen, retriever: both() }, cfg, rankWith({}, true));
    expect(bestTexts(r)).toEqual(['Y', 'Y2']);
    const x = r.tree.candidates.find((c) => c.text === 'X');
    expect(r.ranking.scored.get(x?.id ?? '')).toMatchObject({ pruned: 'hard-constraint', inBeam: false });
    expect(gen.calls.filter((c) => c.kind === 'decideRetrieval').map((c) => c.previous)).toEqual([[], ['Y']]);
  });

  it('can be switched on and off by re-ranking alone', async () => {
    const r = await decode(Q, { generator: script(), retriever: both() }, { ...cfg, beamWidth: 2 }, rankWith());
    expect(bestTexts(r)).toEqual(['X', 'X2']);
    expect(bestTexts({ ...r, ranking: rerank(r.tree, rankWith({}, true)) })).toEqual(['Y', 'Y2']);
  });

  it('leave no answer, rather than an unsupported one, when every first segment is pruned', async () => {
    const gen = new ScriptedGenerator({
      segments: () => ({ text: 'Z', rel: rel(1), sup: sup(0, 0.1, 0.9), use: use(5), done: true }),
    });
    const r = await decode(Q, { generator: gen, retriever: both() }, settings({ mode: 'always' }), rankWith({}, true));
    expect(r.ranking.best).toEqual([]);
    expect([...r.ranking.scored.values()].every((s) => s.pruned === 'hard-constraint')).toBe(true);
  });
});

describe('re-ranking a finished tree', () => {
  // A: relevant, low utility: 0.9 + 1 + 0.5·(−0.5) = 1.65. B: less relevant, top utility: 0.3 + 1 + 0.5·1 = 1.8.
  // With the defaults B wins; with the utility weight at 0, A wins (1.9 against 1.3).
  const decodeOnce = async (beamWidth = 2) => {
    const gen = new ScriptedGenerator({
      segments: {
        [scriptKey([], 'pa')]: { text: 'A', rel: rel(0.9), sup: sup(1, 0, 0), use: use(2), done: true },
        [scriptKey([], 'pb')]: { text: 'B', rel: rel(0.3), sup: sup(1, 0, 0), use: use(5), done: true },
      },
    });
    const r = await decode(
      Q,
      { generator: gen, retriever: both() },
      settings({ mode: 'always', passagesPerStep: 2, beamWidth }),
      rankWith(),
    );
    return { r, gen };
  };

  it('changes the winner when the weights change, without calling any model', async () => {
    const { r, gen } = await decodeOnce();
    const callsAfterDecode = gen.calls.length;
    const snapshot = structuredClone(r.tree);
    expect(bestTexts(r)).toEqual(['B']);
    const reranked = rerank(r.tree, rankWith({ use: 0 }));
    expect(reranked.best.map((s) => s.candidate.text)).toEqual(['A']);
    expect(reranked.best[0]?.segmentScore).toBeCloseTo(1.9, 12);
    expect(gen.calls.length).toBe(callsAfterDecode);
    expect(r.tree).toEqual(snapshot);
    expect(rerank(r.tree, rankWith({ use: 2 })).best.map((s) => s.candidate.text)).toEqual(['B']);
  });

  it('scores every candidate in the tree, in or out of the beam', async () => {
    const { r } = await decodeOnce(1);
    const ranking = rerank(r.tree, rankWith());
    expect(ranking.scored.size).toBe(r.tree.candidates.length);
    expect([...ranking.scored.values()].map((s) => [s.candidate.text, s.inBeam])).toEqual([
      ['A', false],
      ['B', true],
    ]);
  });

  it('treats a node the decode never expanded as a complete answer', async () => {
    // Greedy decode: X is expanded, Y is not. Weights that favour Y make the one-segment Y the answer.
    const gen = new ScriptedGenerator({
      segments: {
        [scriptKey([], 'pa')]: { text: 'X', rel: rel(0.9), sup: sup(0.5, 0, 0.5), use: use(3) },
        [scriptKey([], 'pb')]: { text: 'Y', rel: rel(0.4), sup: sup(1, 0, 0), use: use(3) },
        [scriptKey(['X'], 'pa')]: { text: 'X2', rel: rel(0.9), sup: sup(0.5, 0, 0.5), use: use(3), done: true },
        [scriptKey(['X'], 'pb')]: { text: 'X3', rel: rel(0.4), sup: sup(1, 0, 0), use: use(3), done: true },
      },
    });
    const r = await decode(
      Q,
      { generator: gen, retriever: both() },
      settings({ mode: 'always', passagesPerStep: 2, beamWidth: 1, maxDepth: 2 }),
      rankWith(),
    );
    expect(bestTexts(r)).toEqual(['X', 'X2']);
    expect(rerank(r.tree, rankWith({ rel: 0 })).best.map((s) => s.candidate.text)).toEqual(['Y']);
  });
});

describe('path score', () => {
  it('is the mean segment score, so a longer answer does not win just by being longer', async () => {
    // S: one finished segment scoring 0.9 + 1 + 0.5·0.5 = 2.15. L: 0.8 + 1 + 0.5·0.5 = 2.05, then
    // L2 = 0.5·1 = 0.5. Summed, L ▸ L2 (2.55) would beat S; averaged it is 1.275 and S wins.
    const gen = new ScriptedGenerator({
      segments: {
        [scriptKey([], 'pa')]: { text: 'S', rel: rel(0.9), sup: sup(1, 0, 0), use: use(4), done: true },
        [scriptKey([], 'pb')]: { text: 'L', rel: rel(0.8), sup: sup(1, 0, 0), use: use(4) },
        [scriptKey(['L'], null)]: { text: 'L2', use: use(5), done: true },
      },
      retrieve: (req) =>
        req.previous.length === 0 ? { retrieval: 1, noRetrieval: 0 } : { retrieval: 0, noRetrieval: 1 },
    });
    const r = await decode(
      Q,
      { generator: gen, retriever: both() },
      settings({ passagesPerStep: 2, maxDepth: 3 }),
      rankWith(),
    );
    expect(r.ranking.scored.get(r.tree.candidates[2]?.id ?? '')?.pathScore).toBeCloseTo(1.275, 12);
    expect(bestTexts(r)).toEqual(['S']);
  });
});

describe('re-ranking with the original weights returns the original answer (property)', () => {
  const probs = fc.double({ min: 0.001, max: 1, noNaN: true });
  const segmentArb = fc.record({
    rel: fc.record({ relevant: probs, irrelevant: probs }),
    sup: fc.record({ full: probs, partial: probs, none: probs }),
    use: fc.tuple(probs, probs, probs, probs, probs),
    logprob: fc.double({ min: -20, max: 0, noNaN: true }),
    tokenCount: fc.integer({ min: 1, max: 30 }),
    done: fc.boolean(),
  });
  const caseArb = fc.record({
    segments: fc.array(segmentArb, { minLength: 1, maxLength: 25 }),
    retrieve: fc.array(fc.record({ retrieval: probs, noRetrieval: probs, continueEvidence: probs }), {
      minLength: 1,
      maxLength: 7,
    }),
    mode: fc.constantFrom<RetrievalMode>('adaptive', 'always', 'never'),
    beamWidth: fc.integer({ min: 1, max: 3 }),
    maxDepth: fc.integer({ min: 1, max: 4 }),
    passagesPerStep: fc.integer({ min: 1, max: 3 }),
    weights: fc.record({
      rel: fc.double({ min: -2, max: 3, noNaN: true }),
      sup: fc.double({ min: -2, max: 3, noNaN: true }),
      use: fc.double({ min: -2, max: 3, noNaN: true }),
      seq: fc.double({ min: 0, max: 2, noNaN: true }),
    }),
    hardConstraints: fc.boolean(),
  });
  const pool = [0, 1, 2, 3].map((i) => passage(`d${i}`, `passage number ${i} about water`));
  // The script answers deterministically from the request, so a path always gets the same text.
  const hash = (s: string) => [...s].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7);

  it('for random trees, settings and weights', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (k) => {
        const generator = new ScriptedGenerator({
          retrieve: (req) => k.retrieve[hash(req.previous.join('|')) % k.retrieve.length] as RetrieveProbs,
          segments: (req: SegmentRequest) => {
            const key = `${req.previous.join('|')}@${req.passage?.id}`;
            const s = k.segments[hash(key) % k.segments.length] as GeneratedSegment;
            return { ...s, text: `${req.passage?.id ?? 'none'}:${hash(key) % 1000}` };
          },
        });
        const retriever = new FakeRetriever((query, n) =>
          pool.slice(hash(query) % 2, (hash(query) % 2) + n).map((p) => ({ ...p, score: 0.5 })),
        );
        const rank = { weights: k.weights, hardConstraints: k.hardConstraints };
        const cfg = settings({
          mode: k.mode,
          beamWidth: k.beamWidth,
          maxDepth: k.maxDepth,
          passagesPerStep: k.passagesPerStep,
        });
        const r = await decode(Q, { generator, retriever }, cfg, rank);

        const again = rerank(r.tree, rank);
        expect(again.best.map((s) => s.candidate.id)).toEqual(r.ranking.best.map((s) => s.candidate.id));
        expect(again.best.map((s) => s.pathScore)).toEqual(r.ranking.best.map((s) => s.pathScore));

        // The decode expanded exactly the nodes the replayed beam keeps.
        for (const c of r.tree.candidates) {
          if (c.parentId !== null) expect(again.scored.get(c.parentId)?.inBeam).toBe(true);
        }

        // The answer is a chain from a first segment, kept by the beam at every depth, that ended.
        const best = r.ranking.best.map((s) => s.candidate);
        best.forEach((c, i) => {
          expect(c.depth).toBe(i);
          expect(c.parentId).toBe(i === 0 ? null : best[i - 1]?.id);
          expect(r.ranking.scored.get(c.id)?.inBeam).toBe(true);
        });
        const last = best.at(-1);
        if (last) {
          const hasKids = r.tree.candidates.some((c) => c.parentId === last.id && !r.ranking.scored.get(c.id)?.pruned);
          expect(last.done || last.depth === k.maxDepth - 1 || !hasKids).toBe(true);
        }
        expect(best.length).toBeLessThanOrEqual(k.maxDepth);
      }),
      { numRuns: 150 },
    );
  });
});
