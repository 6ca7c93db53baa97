// The reference algorithms of Self-RAG, CRAG and RAGAS, restated from the papers and the
// authors' code WITHOUT importing the core, so the conformance tests compare two independent
// writings of each rule. Where the reference code has a known bug that the project does not
// copy (docs/conformance.md), the restatement follows the paper and says so.
//
// Sources (read from the repositories' default branches):
// - Self-RAG: AkariAsai/self-rag, retrieval_lm/run_short_form.py (call_model_rerank_w_scores_batch)
//   and retrieval_lm/run_long_form_static.py (run_step_generation_batch, call_model_beam_batch).
// - CRAG: HuskyInSalt/CRAG, scripts/utils.py (select_relevants), scripts/internal_knowledge_preparation.py;
//   paper §4.3 (actions) and Appendix B.2 (top-k 5, filter threshold).
// - RAGAS: explodinggradients/ragas, src/ragas/metrics/_answer_relevance.py (_calculate_score);
//   paper §3 (faithfulness, answer relevance, context relevance).

/** The log-prob the reference substitutes for a reflection token missing from the returned top log-probs. */
export const MISSING_LOGPROB = -100;

/** A token probability as the reference reads it: undefined = not in the top log-probs. */
export type TokenProb = number | undefined;
const p = (x: TokenProb): number => (x === undefined ? Math.exp(MISSING_LOGPROB) : x);

/**
 * How a missing ISREL token is read. 'short-form' is run_short_form.py: `np.exp(-100)`, a
 * probability of about 4e-44. 'long-form' is run_long_form_static.py, which skips the exp for
 * the missing ISREL token only, so its *probability* is −100: a missing [Irrelevant] gives
 * ISREL = p / (p − 100) ≈ −p/100, a missing [Relevant] 100 / (100 − p) ≈ 1. The project reads
 * a missing token as probability 0, like the short form (docs/conformance.md, ISREL row).
 */
export type MissingRelRule = 'short-form' | 'long-form';

/** ISREL: p([Relevant]) / Σ p over {[Relevant], [Irrelevant]}, a missing token read by `rule`. */
export function refIsRel(relevant: TokenProb, irrelevant: TokenProb, rule: MissingRelRule = 'short-form'): number {
  const q = (x: TokenProb): number => (x === undefined && rule === 'long-form' ? MISSING_LOGPROB : p(x));
  return q(relevant) / (q(relevant) + q(irrelevant));
}

/** ISSUP: (p(Fully) + 0.5 p(Partially)) / Σ over the three support tokens; 0 when no support token was generated. */
export function refIsSup(group: [TokenProb, TokenProb, TokenProb] | null): number {
  if (!group) return 0;
  const [f, pa, n] = group.map(p) as [number, number, number];
  const sum = f + pa + n;
  return f / sum + 0.5 * (pa / sum);
}

/** ISUSE: Σ uᵢ p(Utility:i) / Σ p with u = (−1, −0.5, 0, 0.5, 1); 0 when no utility token was generated. */
export function refIsUse(group: TokenProb[] | null): number {
  if (!group) return 0;
  const probs = group.map(p);
  const sum = probs.reduce((a, b) => a + b, 0);
  const u = [-1, -0.5, 0, 0.5, 1];
  return probs.reduce((acc, q, i) => acc + (u[i] ?? 0) * (q / sum), 0);
}

/** seq_score = cumulative_logprob / max(len(token_ids), 1), used as exp(seq_score). */
export function refSeq(cumulativeLogprob: number, tokens: number): number {
  return Math.exp(cumulativeLogprob / Math.max(tokens, 1));
}

export interface RefSegment {
  rel: [TokenProb, TokenProb] | null;
  sup: [TokenProb, TokenProb, TokenProb] | null;
  use: TokenProb[] | null;
  logprob?: number;
  tokens: number;
}

/**
 * final_score = w_rel·ISREL + w_sup·ISSUP + w_use·ISUSE (+ exp(seq_score) with --use_seqscore,
 * i.e. a sequence weight of 1). A segment without a passage has no ISREL: it contributes 0,
 * as the reference's absent ISSUP and ISUSE do.
 */
export function refSegmentScore(
  s: RefSegment,
  w: { rel: number; sup: number; use: number; seq: number },
  missingRel: MissingRelRule = 'short-form',
): number {
  let score =
    (s.rel ? w.rel * refIsRel(s.rel[0], s.rel[1], missingRel) : 0) + w.sup * refIsSup(s.sup) + w.use * refIsUse(s.use);
  if (w.seq !== 0 && s.logprob !== undefined) score += w.seq * refSeq(s.logprob, s.tokens);
  return score;
}

/**
 * The adaptive retrieval decision (long-form script, first step; the paper's rule):
 * retrieve when p([Retrieval]) / (p([Retrieval]) + p([No Retrieval])) > δ, strictly.
 */
export function refRetrieve(retrieval: number, noRetrieval: number, threshold: number): boolean {
  return retrieval / (retrieval + noRetrieval) > threshold;
}

/**
 * The reference's decision for LATER steps (run_step_generation_batch): `[Continue to Use
 * Evidence]` counts with `[Retrieval]` in the numerator only. The project does not use this
 * (docs/conformance.md, item 5); it is restated so the difference is pinned by a test.
 */
export function refRetrieveLater(retrieval: number, noRetrieval: number, cont: number, threshold: number): boolean {
  return (retrieval + cont) / (retrieval + noRetrieval) > threshold;
}

/** A node of an abstract answer tree: its own segment score, whether the model ended there, its children in passage order. */
export interface RefNode {
  id: string;
  depth: number;
  score: number;
  done: boolean;
  children: RefNode[];
}

export type RefPick = 'deepest-level' | 'any-finished';

/**
 * The segment-level beam search of call_model_beam_batch over a tree whose every node's
 * continuations are known. Level 1 holds the first segments; each level keeps the top B by
 * path score (Python's sort is stable: ties keep the order the level was built in: beam
 * order of the parents, then passage order); a node is expanded unless the model ended
 * there or the depth limit is reached. The path score is an aggregate of the segment scores:
 * the reference multiplies; `aggregate` lets the test state the project's argued mean.
 *
 * - 'deepest-level' is the reference's final choice: the best node of the deepest non-empty level.
 * - 'any-finished' restates the project's rule for comparison: the best path among every beam
 *   node that ended (model said done, depth limit, or no continuation), a node the model ended
 *   (done) before one that only stopped, first seen on ties.
 */
export function refBeamSearch(
  roots: RefNode[],
  beamWidth: number,
  maxDepth: number,
  pick: RefPick,
  aggregate: (scores: number[]) => number,
): string[] {
  const pathOf = new Map<string, RefNode[]>();
  const path = (n: RefNode, parent: RefNode[] | undefined): RefNode[] => {
    const p = [...(parent ?? []), n];
    pathOf.set(n.id, p);
    return p;
  };
  for (const r of roots) path(r, undefined);
  const score = (n: RefNode) => aggregate((pathOf.get(n.id) ?? []).map((x) => x.score));
  const levels: RefNode[][] = [];
  const finished: RefNode[] = [];
  let level = roots;
  while (level.length > 0) {
    const beam = level
      .map((n, i) => ({ n, i, s: score(n) }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .slice(0, beamWidth)
      .map((x) => x.n);
    levels.push(beam);
    const next: RefNode[] = [];
    for (const n of beam) {
      const ends = n.done || n.depth >= maxDepth - 1 || n.children.length === 0;
      if (ends) {
        finished.push(n);
        continue;
      }
      for (const c of n.children) {
        path(c, pathOf.get(n.id));
        next.push(c);
      }
    }
    level = next;
  }
  let winner: RefNode | undefined;
  if (pick === 'deepest-level') {
    winner = levels.filter((l) => l.length > 0).at(-1)?.[0];
  } else {
    const better = (f: RefNode, w: RefNode) => (f.done !== w.done ? f.done : score(f) > score(w));
    for (const f of finished) if (!winner || better(f, winner)) winner = f;
  }
  return winner ? (pathOf.get(winner.id) ?? []).map((n) => n.id) : [];
}

export const product = (xs: number[]): number => xs.reduce((a, b) => a * b, 1);
export const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

// --- CRAG ---

/** §4.3: Correct if some score is higher than the upper threshold; Incorrect if all are below the lower; else Ambiguous. */
export function refCragAction(scores: number[], upper: number, lower: number): 'correct' | 'incorrect' | 'ambiguous' {
  if (scores.some((s) => s > upper)) return 'correct';
  if (scores.every((s) => s < lower)) return 'incorrect';
  return 'ambiguous';
}

export interface RefStrip {
  passage: number;
  index: number;
  score: number;
}

/**
 * Knowledge strip selection: drop strips below the filter threshold (Appendix B.2), then keep the
 * top-k by score with a stable sort, as select_relevants does over ONE pooled list of every
 * passage's strips. 'per-passage' applies the same selection to each passage's strips alone.
 * Returns the kept strips as "passage:index".
 */
export function refSelectStrips(
  strips: RefStrip[],
  threshold: number,
  topK: number,
  pool: 'across-passages' | 'per-passage',
): Set<string> {
  const select = (list: RefStrip[]) =>
    list
      .filter((s) => !(s.score < threshold))
      .map((s, i) => ({ s, i }))
      .sort((a, b) => b.s.score - a.s.score || a.i - b.i)
      .slice(0, topK)
      .map(({ s }) => `${s.passage}:${s.index}`);
  if (pool === 'across-passages') return new Set(select(strips));
  const passages = [...new Set(strips.map((s) => s.passage))];
  return new Set(passages.flatMap((pi) => select(strips.filter((s) => s.passage === pi))));
}

// --- RAGAS ---

function cos(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  });
  return dot / (Math.sqrt(na) * Math.sqrt(nb));
}

/** The library's _calculate_score: mean cosine(question, generated question) × int(not all noncommittal). */
export function refAnswerRelevance(question: number[], generated: number[][], noncommittal: boolean[]): number {
  const sims = generated.map((g) => cos(question, g));
  const allNoncommittal = noncommittal.length > 0 && noncommittal.every(Boolean);
  return (sims.reduce((a, b) => a + b, 0) / sims.length) * (allNoncommittal ? 0 : 1);
}

/** Paper §3: F = |V| / |S|. */
export function refFaithfulness(verdicts: boolean[]): number {
  return verdicts.filter(Boolean).length / verdicts.length;
}

/** Paper §3: CR = number of extracted sentences / total number of sentences in c(q). */
export function refContextRelevance(extracted: number, total: number): number {
  return extracted / total;
}
