import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/core/decode';
import { DEFAULT_DECODE_SETTINGS } from '../../../src/core/defaults';
import type { ScoredPassage } from '../../../src/core/ports';
import { FakeCritic } from '../../doubles/fake-critic';
import { FakeRetriever, passage } from '../../doubles/fake-retriever';
import { ScriptedGenerator } from '../../doubles/scripted-generator';
import { rankWith, rel, settings, sup, use } from './helpers';

const Q = 'When was the tower built?';
const ps: ScoredPassage[] = ['p1', 'p2', 'p3'].map((id, i) => ({
  ...passage(id, `Fact ${id} about the tower.`, 'Tower'),
  score: 1 - i / 10,
}));

/** Never ends the answer on its own, so only the depth limit or the budget stops it. */
function endless(): ScriptedGenerator {
  return new ScriptedGenerator({
    retrieve: () => ({ retrieval: 1, noRetrieval: 0 }),
    segments: (req) => ({
      text: `${req.previous.length}:${req.passage?.id}`,
      rel: rel(0.9),
      sup: sup(0.9, 0.1, 0),
      use: use(4),
    }),
  });
}
const written = (g: ScriptedGenerator) => g.calls.flatMap((c) => (c.kind === 'generateSegments' ? c.requests : []));

describe('the candidate budget', () => {
  it('writes at most maxCandidates candidates in one answer, and still ranks an answer from them', async () => {
    const g = endless();
    const r = await decode(
      Q,
      { generator: g, retriever: new FakeRetriever(() => ps) },
      settings({ maxDepth: 6, maxCandidates: 4 }),
      rankWith(),
    );
    expect(written(g)).toHaveLength(4);
    expect(r.tree.candidates).toHaveLength(4);
    expect(r.ranking.best.length).toBeGreaterThan(0);
    expect(r.aborted).toBe(false);
  });

  it('spends what is left on the most relevant passages when the evaluator judged them', async () => {
    const g = endless();
    const critic = new FakeCritic({ relevance: { p1: rel(0.6), p2: rel(0.95), p3: rel(0.7) }, support: {} });
    await decode(
      Q,
      { generator: g, retriever: new FakeRetriever(() => ps), critic },
      settings({ mode: 'always', relevanceGate: 0.5, maxCandidates: 2 }),
      rankWith(),
    );
    expect(written(g).map((r) => r.passageId)).toEqual(['p2', 'p3']);
  });

  it("is unlimited at 0, as in the paper's search", async () => {
    const g = endless();
    await decode(
      Q,
      { generator: g, retriever: new FakeRetriever(() => ps) },
      settings({ mode: 'always', maxDepth: 2, beamWidth: 2, maxCandidates: 0 }),
      rankWith(),
    );
    expect(written(g)).toHaveLength(3 + 2 * 3);
  });

  it('is on by default, with the other cost levers', () => {
    expect(DEFAULT_DECODE_SETTINGS).toMatchObject({
      maxCandidates: 3,
      relevanceGate: 0.5,
      stopAtFirstAnswer: true,
      critiqueSource: 'auto',
    });
  });

  it('refuses a budget that is not a whole number of 0 or more', async () => {
    await expect(
      decode(
        Q,
        { generator: endless(), retriever: new FakeRetriever(() => ps) },
        settings({ maxCandidates: 1.5 }),
        rankWith(),
      ),
    ).rejects.toThrow(/candidate budget must be a whole number/);
  });
});
