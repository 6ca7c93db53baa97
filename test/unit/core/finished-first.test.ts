// The default final pick ('any-finished') shows a whole answer before half of one: a path the
// generator ended (done) ranks above every path that only stopped (the depth limit, the candidate
// budget), whatever their mean scores; among paths of one kind the mean path score decides.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/core/decode';
import { rerank } from '../../../src/core/rerank';
import type { RankSettings } from '../../../src/core/types';
import { prng, randomTree, storedTree } from '../conformance/random-tree';
import { FakeRetriever, passage } from '../../doubles/fake-retriever';
import { ScriptedGenerator, scriptKey } from '../../doubles/scripted-generator';
import { bestTexts, rankWith, rel, settings, sup, use, yes } from './helpers';

const Q = 'How do I update a value in a HashMap?';
const pa = passage('pa', 'Insert the key again to replace its value.');
const pb = passage('pb', 'The entry API updates a value in place.');
const both = () => new FakeRetriever(() => [pa, pb].map((p, i) => ({ ...p, score: 1 - i / 10 })));

describe('a finished answer ranks above an unfinished one', () => {
  // A ends the answer with a modest score; B scores higher per segment but the budget stops it
  // after B1, which still wanted to go on.
  const script = () =>
    new ScriptedGenerator({
      retrieve: () => yes,
      segments: {
        [scriptKey([], 'pa')]: { text: 'A', rel: rel(0.5), sup: sup(0.5, 0.3, 0.2), use: use(3), done: true },
        [scriptKey([], 'pb')]: { text: 'B', rel: rel(0.95), sup: sup(0.9, 0.05, 0.05), use: use(5) },
        [scriptKey(['B'], 'pa')]: { text: 'B1', rel: rel(0.9), sup: sup(0.9, 0.05, 0.05), use: use(5) },
      },
    });
  const cfg = settings({ passagesPerStep: 2, beamWidth: 2, maxDepth: 4, maxCandidates: 3 });

  it('the decode shows the path the generator ended, not the higher-scoring one the budget cut short', async () => {
    const r = await decode(Q, { generator: script(), retriever: both() }, cfg, rankWith());
    const b1 = r.tree.candidates.find((c) => c.text === 'B1')!;
    // The unfinished path does score higher: only its being unfinished puts it second.
    expect(r.ranking.scored.get(b1.id)!.pathScore).toBeGreaterThan(r.ranking.best[0]!.pathScore);
    expect(bestTexts(r)).toEqual(['A']);
  });

  it('re-ranking keeps the rule; the reference pick (deepest level) still reads only the deepest level', async () => {
    const r = await decode(Q, { generator: script(), retriever: both() }, cfg, rankWith());
    const ids = (rank: RankSettings) => rerank(r.tree, rank).best.map((b) => b.candidate.text);
    expect(ids(rankWith())).toEqual(['A']);
    expect(ids({ ...rankWith(), finalPick: 'deepest-level' })).toEqual(['B', 'B1']);
  });

  it('with no finished path, the best unfinished one is shown', async () => {
    const gen = new ScriptedGenerator({
      retrieve: () => yes,
      segments: {
        [scriptKey([], 'pa')]: { text: 'A', rel: rel(0.5), sup: sup(0.5, 0.3, 0.2), use: use(3) },
        [scriptKey([], 'pb')]: { text: 'B', rel: rel(0.95), sup: sup(0.9, 0.05, 0.05), use: use(5) },
      },
    });
    const r = await decode(Q, { generator: gen, retriever: both() }, settings({ ...cfg, maxDepth: 1 }), rankWith());
    expect(bestTexts(r)).toEqual(['B']);
  });

  it('on random trees the pick ends in a finished candidate whenever the beam kept one, the best such by path score', () => {
    const shapes = fc.record({
      seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      passages: fc.integer({ min: 1, max: 3 }),
      maxDepth: fc.integer({ min: 1, max: 4 }),
      beamWidth: fc.integer({ min: 1, max: 3 }),
      pDone: fc.constantFrom(0.15, 0.3, 0.6),
      weights: fc.record({
        rel: fc.integer({ min: 0, max: 30 }).map((k) => k / 10),
        sup: fc.integer({ min: 0, max: 30 }).map((k) => k / 10),
        use: fc.integer({ min: 0, max: 30 }).map((k) => k / 10),
        seq: fc.constantFrom(0, 1),
      }),
    });
    fc.assert(
      fc.property(shapes, (s) => {
        const { roots } = randomTree(prng(s.seed), {
          passages: s.passages,
          maxDepth: s.maxDepth,
          pDone: s.pDone,
          pRetrieve: 0.7,
          pMissingToken: 0.1,
          pMissingGroup: 0.15,
        });
        const tree = storedTree(roots, settings({ beamWidth: s.beamWidth, maxDepth: s.maxDepth, passagesPerStep: 3 }));
        const ranking = rerank(tree, { weights: s.weights, hardConstraints: false, finalPick: 'any-finished' });
        const last = ranking.best.at(-1)!;
        // A done candidate the beam kept ends a path (done is terminal), so it was in the running.
        const keptDone = [...ranking.scored.values()].filter((x) => x.inBeam && x.candidate.done);
        if (keptDone.length === 0) return;
        expect(last.candidate.done).toBe(true);
        expect(last.pathScore).toBe(Math.max(...keptDone.map((x) => x.pathScore)));
      }),
      { numRuns: 300 },
    );
  });
});
