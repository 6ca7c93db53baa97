import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/core/decode';
import type { ScoredPassage } from '../../../src/core/ports';
import type { DecodeEvent } from '../../../src/core/types';
import { FakeCritic } from '../../doubles/fake-critic';
import { FakeRetriever, passage } from '../../doubles/fake-retriever';
import { ScriptedGenerator } from '../../doubles/scripted-generator';
import { rankWith, rel, settings, sup, use } from './helpers';

const Q = 'When was the tower built?';
const p1 = passage('p1', 'The tower was built from 1887 to 1889.', 'Tower');
const p2 = passage('p2', 'Paris is the capital of France.', 'Paris');
const p3 = passage('p3', 'The tower is 330 metres tall.', 'Tower');
const scored = (...ps: (typeof p1)[]): ScoredPassage[] => ps.map((p, i) => ({ ...p, score: 1 - i / 10 }));

function setup(relevance: Record<string, number>) {
  const generator = new ScriptedGenerator({
    segments: (req) => ({
      text: `From ${req.passage?.id ?? 'nothing'}.`,
      rel: rel(0.9),
      sup: sup(0.9, 0.1, 0),
      use: use(4),
      done: true,
    }),
  });
  const critic = new FakeCritic({
    relevance: Object.fromEntries(Object.entries(relevance).map(([id, r]) => [id, rel(r)])),
    support: { p1: sup(1, 0, 0), p2: sup(1, 0, 0), p3: sup(1, 0, 0) },
  });
  const retriever = new FakeRetriever(() => scored(p1, p2, p3));
  return { generator, critic, retriever };
}

const written = (g: ScriptedGenerator): string[] =>
  g.calls.flatMap((c) => (c.kind === 'generateSegments' ? c.requests.map((r) => r.passageId ?? 'none') : []));

describe('the relevance gate', () => {
  it('writes no candidate from a passage the relevance model put below the gate', async () => {
    const { generator, critic, retriever } = setup({ p1: 0.9, p2: 0.1, p3: 0.6 });
    const events: DecodeEvent[] = [];
    const r = await decode(
      Q,
      { generator, retriever, critic },
      settings({ mode: 'always', relevanceGate: 0.5 }),
      rankWith(),
      { onEvent: (e) => events.push(e) },
    );
    expect(written(generator)).toEqual(['p1', 'p3']);
    expect(r.tree.candidates.map((c) => c.passage?.id)).toEqual(['p1', 'p3']);
    expect(r.tree.skipped?.map((s) => [s.passage.id, s.rel.relevant])).toEqual([['p2', 0.1]]);
    expect(events.filter((e) => e.type === 'gated')).toHaveLength(1);
  });

  it("always writes the step's most relevant passage, even when every passage is below the gate", async () => {
    const { generator, critic, retriever } = setup({ p1: 0.2, p2: 0.3, p3: 0.1 });
    const r = await decode(
      Q,
      { generator, retriever, critic },
      settings({ mode: 'always', relevanceGate: 0.9 }),
      rankWith(),
    );
    expect(written(generator)).toEqual(['p2']);
    expect(r.ranking.best.map((b) => b.candidate.passage?.id)).toEqual(['p2']);
  });

  it("judges each step once: the evaluator critique reuses the gate's relevance", async () => {
    const { generator, critic, retriever } = setup({ p1: 0.9, p2: 0.1, p3: 0.6 });
    const r = await decode(
      Q,
      { generator, retriever, critic },
      settings({ mode: 'always', relevanceGate: 0.5, critiqueSource: 'evaluator' }),
      rankWith(),
    );
    expect(critic.calls).toEqual([
      { kind: 'relevance', passageIds: ['p1', 'p2', 'p3'] },
      { kind: 'support', passageIds: ['p1', 'p3'] },
    ]);
    expect(r.tree.candidates.map((c) => c.rel?.relevant)).toEqual([0.9, 0.6]);
  });

  it('is off at 0 and without a critic: every retrieved passage gets its candidate', async () => {
    for (const [gate, withCritic] of [
      [0, true],
      [0.5, false],
    ] as const) {
      const { generator, critic, retriever } = setup({ p1: 0.9, p2: 0.1, p3: 0.6 });
      const r = await decode(
        Q,
        { generator, retriever, ...(withCritic ? { critic } : {}) },
        settings({ mode: 'always', relevanceGate: gate }),
        rankWith(),
      );
      expect(written(generator)).toEqual(['p1', 'p2', 'p3']);
      expect(r.tree.skipped).toBeUndefined();
      expect(critic.calls).toEqual([]);
    }
  });

  it('refuses a gate outside 0..1 with a clear message', async () => {
    const { generator, critic, retriever } = setup({});
    await expect(
      decode(Q, { generator, retriever, critic }, settings({ relevanceGate: 1.5 }), rankWith()),
    ).rejects.toThrow(/relevance gate must be a number from 0 to 1/);
  });
});
