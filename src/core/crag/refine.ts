import type { KnowledgeSource, KnowledgeStrip, ScoredPassage } from '../ports';
import type { StripPool } from './settings';
import { decompose, recompose } from './strips';

export type ScoreFn = (question: string, texts: string[], signal?: AbortSignal) => Promise<number[]>;

export interface RefineOptions {
  stripThreshold: number;
  stripTopK: number;
  sentencesPerStrip: number;
  /** Where the top-k is taken: within each passage (default) or over the strips of all passages (the reference code). */
  stripPool?: StripPool;
  source: KnowledgeSource;
  signal?: AbortSignal;
}

export interface Refined {
  /** Passages whose text is their kept strips recomposed; passages with no kept strip are gone. */
  passages: ScoredPassage[];
  /** Every strip, kept or dropped, for the UI. */
  strips: KnowledgeStrip[];
}

/**
 * CRAG §4.4 decompose → filter → recompose. All strips of all passages are scored in one
 * call (one evaluator batch). A strip is dropped when it scores below the threshold, or when
 * better strips already fill the top-k: of the same passage ('per-passage'), or of any passage
 * ('across-passages', as the reference's select_relevants ranks one pooled list). Ties go to
 * the earlier passage, then the earlier strip.
 */
export async function refineKnowledge(
  question: string,
  passages: readonly ScoredPassage[],
  score: ScoreFn,
  opts: RefineOptions,
): Promise<Refined> {
  const perPassage = passages.map((p) => decompose(p.text, opts.sentencesPerStrip));
  const flat = perPassage.flat();
  const scores = flat.length ? await score(question, flat, opts.signal) : [];
  if (scores.length !== flat.length) {
    throw new Error(`retrieval evaluator returned ${scores.length} scores for ${flat.length} knowledge strips`);
  }
  let offset = 0;
  const byPassage: KnowledgeStrip[][] = passages.map((passage, pi) => {
    const texts = perPassage[pi] ?? [];
    const mine = texts.map(
      (text, index): KnowledgeStrip => ({
        passageId: passage.id,
        index,
        text,
        score: scores[offset + index] ?? 0,
        kept: false,
        source: opts.source,
      }),
    );
    offset += texts.length;
    return mine;
  });
  const topK = (pool: KnowledgeStrip[]) =>
    pool
      .filter((s) => s.score >= opts.stripThreshold)
      .sort((a, b) => b.score - a.score)
      .slice(0, opts.stripTopK);
  // Array.prototype.sort is stable and the pools are in passage, then strip order: that is the tie rule.
  const keep = new Set(opts.stripPool === 'across-passages' ? topK(byPassage.flat()) : byPassage.flatMap(topK));
  const strips: KnowledgeStrip[] = [];
  const refined: ScoredPassage[] = [];
  passages.forEach((passage, pi) => {
    const mine = byPassage[pi] ?? [];
    for (const s of mine) {
      s.kept = keep.has(s);
      if (!s.kept) s.dropped = s.score < opts.stripThreshold ? 'below-threshold' : 'beyond-top-k';
    }
    strips.push(...mine);
    const kept = mine.filter((s) => s.kept);
    if (kept.length) refined.push({ ...passage, text: recompose(kept) });
  });
  return { passages: refined, strips };
}
