import type { KnowledgeSource, KnowledgeStrip, ScoredPassage } from '../ports';
import { decompose, recompose } from './strips';

export type ScoreFn = (question: string, texts: string[], signal?: AbortSignal) => Promise<number[]>;

export interface RefineOptions {
  stripThreshold: number;
  stripTopK: number;
  sentencesPerStrip: number;
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
 * better strips of the same passage already fill the top-k.
 */
export async function refineKnowledge(question: string, passages: readonly ScoredPassage[], score: ScoreFn, opts: RefineOptions): Promise<Refined> {
  const perPassage = passages.map((p) => decompose(p.text, opts.sentencesPerStrip));
  const flat = perPassage.flat();
  const scores = flat.length ? await score(question, flat, opts.signal) : [];
  if (scores.length !== flat.length) {
    throw new Error(`retrieval evaluator returned ${scores.length} scores for ${flat.length} knowledge strips`);
  }
  const strips: KnowledgeStrip[] = [];
  const refined: ScoredPassage[] = [];
  let offset = 0;
  passages.forEach((passage, pi) => {
    const texts = perPassage[pi] ?? [];
    const mine: KnowledgeStrip[] = texts.map((text, index) => ({
      passageId: passage.id,
      index,
      text,
      score: scores[offset + index] ?? 0,
      kept: false,
      source: opts.source,
    }));
    offset += texts.length;
    const ranked = mine.filter((s) => s.score >= opts.stripThreshold).sort((a, b) => b.score - a.score || a.index - b.index);
    const keep = new Set(ranked.slice(0, opts.stripTopK));
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
