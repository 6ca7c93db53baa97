/**
 * FakeCritic — a Critic (evaluator) port double.
 *
 *   new FakeCritic()                                   // judges by word overlap (below)
 *   new FakeCritic({ relevance: { p1: { relevant: 0.9, irrelevant: 0.1 } },
 *                    support: { p1: { full: 0.8, partial: 0.1, none: 0.1 } } })   // per passage id
 *
 * Scripted entries win; anything unscripted falls back to word overlap: relevance =
 * overlap(question, passage), support = the share of the text's words found in the passage
 * (all → fully, some → partially, none → no support). `critic.calls` records every call:
 * { kind: 'relevance', passageIds } or { kind: 'support', passageIds }.
 */
import type { Critic, Passage, RelProbs, SupProbs } from '../../src/core/ports';
import { overlap } from './fake-retriever';

export interface CriticScript {
  relevance?: Record<string, RelProbs>;
  support?: Record<string, SupProbs>;
}

export type CriticCall = { kind: 'relevance' | 'support'; passageIds: string[] };

const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export class FakeCritic implements Critic {
  readonly calls: CriticCall[] = [];

  constructor(private readonly script: CriticScript = {}) {}

  async relevance(question: string, passages: Passage[]): Promise<RelProbs[]> {
    this.calls.push({ kind: 'relevance', passageIds: passages.map((p) => p.id) });
    return passages.map((p) => {
      const scripted = this.script.relevance?.[p.id];
      if (scripted) return scripted;
      const r = overlap(question, p.text);
      return { relevant: r, irrelevant: 1 - r };
    });
  }

  async support(pairs: { passage: Passage; text: string }[]): Promise<SupProbs[]> {
    this.calls.push({ kind: 'support', passageIds: pairs.map((p) => p.passage.id) });
    return pairs.map(({ passage, text }) => {
      const scripted = this.script.support?.[passage.id];
      if (scripted) return scripted;
      const inPassage = new Set(words(passage.text));
      const w = words(text);
      const found = w.length === 0 ? 0 : w.filter((x) => inPassage.has(x)).length / w.length;
      if (found === 1) return { full: 0.8, partial: 0.15, none: 0.05 };
      if (found > 0) return { full: 0.15, partial: 0.7 * found + 0.1, none: 0.75 - 0.7 * found };
      return { full: 0.05, partial: 0.15, none: 0.8 };
    });
  }
}
