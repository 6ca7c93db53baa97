// Hybrid retrieval as the core sees it: embed the question (unless searching by words
// only), search both indexes and fuse (one call to the index), then re-rank the fused
// candidates with the cross-encoder in ONE batched call and hand back the best k.
// The re-rank scores go through the same (cached) relevance scorer as ISREL and CRAG,
// so the evaluator never scores a (question, passage) pair twice.
import type { FusedHit, SearchMode } from './fusion';
import type { Passage, ScoredPassage } from './ports';
import type { Reranker, RetrievalSettings } from './retrieval-settings';

// The settings live apart (retrieval-settings.ts): the page's saved settings read them without this module.
export { DEFAULT_RETRIEVAL, type Reranker, type RetrievalSettings } from './retrieval-settings';

/** How many fused candidates the cross-encoder re-ranks. */
export const RERANK_CANDIDATES = 20;
/**
 * How many the generator judges: one judge turn each (~190 prompt tokens), so fewer than the
 * cross-encoder's batch. The first stage's best 10 hold an answer for 0.928 of the labelled real
 * set (its best 3: 0.812); measured at this depth in `npm run bench -- generator-rerank`.
 */
export const GENERATOR_RERANK_CANDIDATES = 10;

/** The generator's judge: p(Yes) that each passage answers the question (Generator.judgePassages). */
export type PassageJudge = (query: string, passages: Passage[], signal?: AbortSignal) => Promise<number[]>;

/**
 * The final order mixes the critic's probability with the first stage's score (scaled to its
 * best), rather than replacing it: an unsure critic (0.62 against 0.60) cannot bury the passage
 * the first stage found with certainty, and a confident one (0.95 against 0.05) still decides.
 * With the site's MaxSim critic, the labelled dev split favours a larger share (recall@3 of the
 * best 20: 0.814 at 0.5, 0.886 from 0.8 to 1.0: `CRITIQUES_WEIGHTS=… npm run bench -- critiques`),
 * but at 0.8 the browser tests' word-overlap stand-in critic decides their rankings alone and
 * buries the passages they ask for; raising it waits on a stand-in that judges like the real one.
 */
export const RERANK_WEIGHT = 0.5;

/** The generator's judge mixes at its own weight, measured in `npm run bench -- generator-rerank`. */
export const JUDGE_RERANK_WEIGHT = 0.5;

export type RelevanceScorer = (query: string, texts: string[], signal?: AbortSignal) => Promise<number[]>;

export interface HybridPorts {
  /** The question's unit embedding (query prefix applied by the embedder). */
  embedQuery(query: string, signal?: AbortSignal): Promise<Float32Array>;
  search(req: { vector: Float32Array | null; text: string; mode: SearchMode; limit: number }): Promise<FusedHit[]>;
  passages(ids: string[]): Promise<Array<Passage | undefined>>;
  /** The cross-encoder; without it (or when it fails) the fused order stands. */
  rerank?: RelevanceScorer;
  /** The generator's judge, used when the settings name it; without it the cross-encoder re-ranks. */
  judge?: PassageJudge;
}

export async function hybridRetrieve(
  ports: HybridPorts,
  query: string,
  k: number,
  settings: RetrievalSettings,
  signal?: AbortSignal,
): Promise<ScoredPassage[]> {
  if (!query.trim() || k <= 0) return [];
  let vector: Float32Array | null = null;
  let mode = settings.search;
  if (mode !== 'words') {
    try {
      vector = await ports.embedQuery(query, signal);
    } catch (e) {
      // Without the embedding model, 'both' still finds passages by their words; 'meaning' cannot.
      if (signal?.aborted || mode === 'meaning') throw e;
      mode = 'words';
    }
  }
  signal?.throwIfAborted();
  const judge = settings.rerank && settings.reranker === 'generator' ? ports.judge : undefined;
  const rerank = settings.rerank && !judge && ports.rerank;
  const depth = judge ? GENERATOR_RERANK_CANDIDATES : rerank ? RERANK_CANDIDATES : 0;
  const hits = await ports.search({ vector, text: query, mode, limit: Math.max(k, depth) });
  const found = await ports.passages(hits.map((h) => h.id));
  signal?.throwIfAborted();
  let out: ScoredPassage[] = [];
  hits.forEach((h, i) => {
    const p = found[i];
    if (!p) return;
    const ranks: ScoredPassage['ranks'] = {};
    if (h.lexicalRank !== undefined) ranks.lexical = h.lexicalRank;
    if (h.denseRank !== undefined) ranks.dense = h.denseRank;
    out.push({ ...p, score: h.score, ranks });
  });
  if ((judge || rerank) && out.length > 1) {
    let scores: number[] | null = null;
    try {
      scores = judge
        ? await judge(query, out, signal)
        : await (rerank as RelevanceScorer)(
            query,
            out.map((p) => p.text),
            signal,
          );
    } catch (e) {
      if (signal?.aborted) throw e;
      // The judge could not run (e.g. the cross-encoder failed to load): the fused order still answers.
    }
    if (scores && scores.length === out.length && scores.every(Number.isFinite))
      out = judge
        ? mixRerank(out, scores, JUDGE_RERANK_WEIGHT, 'generator')
        : mixRerank(out, scores, RERANK_WEIGHT, 'cross-encoder');
  }
  return out.slice(0, k);
}

/** The candidates in the re-rank's order: `weight` of the judge's probability, the rest the first stage's score scaled to its best. */
export function mixRerank(
  out: ScoredPassage[],
  scores: number[],
  weight = RERANK_WEIGHT,
  by: Reranker = 'cross-encoder',
): ScoredPassage[] {
  const top = Math.max(...out.map((p) => p.score)) || 1;
  return (
    out
      .map((p, i) => ({
        p: {
          ...p,
          score: weight * scores[i]! + (1 - weight) * (p.score / top),
          ranks: { ...p.ranks, rerank: scores[i]!, ...(by === 'generator' ? { rerankBy: by } : {}) },
        },
        i,
      }))
      // Stable: equal probabilities keep the fused order.
      .sort((a, b) => b.p.score - a.p.score || a.i - b.i)
      .map((x) => x.p)
  );
}
