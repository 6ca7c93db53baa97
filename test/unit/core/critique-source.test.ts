import { describe, expect, it } from 'vitest';
import { resolveCritiqueSource } from '../../../src/core/critique-source';
import { decode } from '../../../src/core/decode';
import { DEFAULT_DECODE_SETTINGS } from '../../../src/core/defaults';
import type { ScoredPassage } from '../../../src/core/ports';
import { FakeCritic } from '../../doubles/fake-critic';
import { FakeRetriever, passage } from '../../doubles/fake-retriever';
import { ScriptedGenerator } from '../../doubles/scripted-generator';
import { rankWith, rel, sup, use } from './helpers';

const Q = 'When was the tower built?';
const p1: ScoredPassage = { ...passage('p1', 'The tower was built from 1887 to 1889.', 'Tower'), score: 0.9 };
const p2: ScoredPassage = { ...passage('p2', 'The tower is 330 metres tall.', 'Tower'), score: 0.8 };

function generator(native: boolean): ScriptedGenerator {
  const g = new ScriptedGenerator({
    retrieve: () => ({ retrieval: 1, noRetrieval: 0 }),
    segments: (req) => ({
      text: `From ${req.passage?.id}.`,
      rel: rel(0.2),
      sup: sup(0.1, 0.1, 0.8),
      use: use(4),
      done: true,
    }),
  });
  Object.defineProperty(g, 'native', { value: native });
  return g;
}
const critic = () =>
  new FakeCritic({ relevance: { p1: rel(0.9), p2: rel(0.8) }, support: { p1: sup(1, 0, 0), p2: sup(1, 0, 0) } });
const retriever = () => new FakeRetriever(() => [p1, p2]);

describe("the default critique source 'auto'", () => {
  it("keeps explicit choices, and decides auto by the generator's kind and whether the evaluator is there", () => {
    for (const s of ['generator', 'evaluator', 'blend'] as const)
      expect(resolveCritiqueSource(s, { nativeGenerator: true, critic: false })).toBe(s);
    expect(resolveCritiqueSource('auto', { nativeGenerator: true, critic: true })).toBe('generator');
    expect(resolveCritiqueSource('auto', { nativeGenerator: false, critic: true })).toBe('evaluator');
    expect(resolveCritiqueSource('auto', { nativeGenerator: false, critic: false })).toBe('generator');
  });

  it("is the default, and a prompted model's candidates are graded by the evaluator, not by itself", async () => {
    expect(DEFAULT_DECODE_SETTINGS.critiqueSource).toBe('auto');
    const r = await decode(
      Q,
      { generator: generator(false), retriever: retriever(), critic: critic() },
      DEFAULT_DECODE_SETTINGS,
      rankWith(),
    );
    expect(r.tree.critiquesFrom).toBe('evaluator');
    expect(r.tree.candidates.map((c) => c.rel?.relevant)).toEqual([0.9, 0.8]);
    expect(r.tree.candidates.map((c) => c.sup?.full)).toEqual([1, 1]);
  });

  it('leaves a native Self-RAG model its own reflection tokens', async () => {
    const r = await decode(
      Q,
      { generator: generator(true), retriever: retriever(), critic: critic() },
      DEFAULT_DECODE_SETTINGS,
      rankWith(),
    );
    expect(r.tree.critiquesFrom).toBe('generator');
    expect(r.tree.candidates.every((c) => c.rel?.relevant === 0.2 && c.sup?.full === 0.1)).toBe(true);
  });

  it("answers with the generator's own grades when the evaluator is not available, rather than failing", async () => {
    const r = await decode(
      Q,
      { generator: generator(false), retriever: retriever() },
      DEFAULT_DECODE_SETTINGS,
      rankWith(),
    );
    expect(r.tree.critiquesFrom).toBe('generator');
    expect(r.tree.candidates.map((c) => c.rel?.relevant)).toEqual([0.2, 0.2]);
  });
});
