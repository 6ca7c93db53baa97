// Segment-level beam search over an answer tree (Self-RAG Sec. 3.3). Both the decode loop
// and re-ranking run this one function, so re-ranking with the weights a decode used gives
// back exactly the answer that decode chose.
import { isUnsupported, segmentScore } from './scores';
import type { AnswerTree, Candidate, RankSettings, Ranking, ScoredCandidate } from './types';

export interface BeamRun {
  ranking: Ranking;
  /**
   * Beam nodes that may continue but have no children in the tree. The decode loop expands
   * them next; for re-ranking they are leaves, i.e. complete answers.
   */
  frontier: Candidate[];
  /** Ids kept at each depth, best first. */
  beams: string[][];
}

// A withheld candidate (not an answer: types.ts, Withheld) is never continued.
const isTerminal = (c: Candidate, maxDepth: number): boolean => c.done || !!c.withheld || c.depth >= maxDepth - 1;

/** Answers first, then by path score: a withheld candidate never outranks an answer, whatever its score. */
const answersFirst = (a: ScoredCandidate, b: ScoredCandidate): number =>
  Number(!!a.candidate.withheld) - Number(!!b.candidate.withheld) || b.pathScore - a.pathScore;

/**
 * The final pick's order: answers first, then a path the generator ended (`done`: the answer is
 * complete) before one that stopped short of its end (the depth limit, the candidate budget, or
 * continuations that were all withheld), then by path score. A mean over fewer segments must not
 * let half an answer beat a whole one. Within a level the beam keeps ordering by score alone, so
 * the search still explores the best unfinished paths, which may yet finish.
 */
const finishedFirst = (a: ScoredCandidate, b: ScoredCandidate): number =>
  Number(!!a.candidate.withheld) - Number(!!b.candidate.withheld) ||
  Number(b.candidate.done) - Number(a.candidate.done) ||
  b.pathScore - a.pathScore;

/**
 * Path score = the MEAN of the segment scores on the path, root to node.
 *
 * The reference multiplies a child's score into its parent's, which misbehaves once ISUSE
 * makes a segment score negative (two negatives multiply to a good score) and shrinks or
 * grows with length. A sum would grow with every segment, so a longer answer would beat a
 * shorter finished one just for being longer. Within one depth all paths have the same
 * length, so the mean ranks exactly like the sum there; it only matters when finished paths
 * of different lengths compete for the final answer, and then it compares quality per segment.
 */
function scoreAll(tree: AnswerTree, rank: RankSettings): Map<string, ScoredCandidate> {
  const byId = new Map(tree.candidates.map((c) => [c.id, c]));
  const scored = new Map<string, ScoredCandidate>();
  const visit = (c: Candidate): ScoredCandidate => {
    const known = scored.get(c.id);
    if (known) return known;
    const s = segmentScore(c, rank.weights);
    const parent = c.parentId === null ? undefined : byId.get(c.parentId);
    const parentPath = parent ? visit(parent).pathScore : 0;
    const length = c.depth + 1;
    const entry: ScoredCandidate = {
      candidate: c,
      segmentScore: s,
      pathScore: parent ? (parentPath * (length - 1) + s) / length : s,
      inBeam: false,
    };
    if (rank.hardConstraints && c.sup && isUnsupported(c.sup)) entry.pruned = 'hard-constraint';
    scored.set(c.id, entry);
    return entry;
  };
  for (const c of tree.candidates) visit(c);
  return scored;
}

export function runBeam(tree: AnswerTree, rank: RankSettings): BeamRun {
  const { beamWidth, maxDepth } = tree.settings;
  const scored = scoreAll(tree, rank);
  const order = new Map(tree.candidates.map((c, i) => [c.id, i]));
  const children = new Map<string | null, Candidate[]>();
  for (const c of tree.candidates) {
    const list = children.get(c.parentId);
    if (list) list.push(c);
    else children.set(c.parentId, [c]);
  }
  const get = (c: Candidate): ScoredCandidate => scored.get(c.id) as ScoredCandidate;

  const finished: ScoredCandidate[] = [];
  const frontier: Candidate[] = [];
  const beams: string[][] = [];
  let level = children.get(null) ?? [];
  while (level.length > 0) {
    // Array.prototype.sort is stable, so ties go to the earlier candidate in the tree.
    const beam = level
      .map(get)
      .filter((s) => !s.pruned)
      .sort(answersFirst)
      .slice(0, beamWidth);
    beams.push(beam.map((b) => b.candidate.id));
    const next: Candidate[] = [];
    for (const node of beam) {
      node.inBeam = true;
      const kids = children.get(node.candidate.id);
      if (isTerminal(node.candidate, maxDepth)) {
        finished.push(node);
      } else if (!kids) {
        finished.push(node);
        frontier.push(node.candidate);
      } else if (kids.every((k) => get(k).pruned)) {
        // Every continuation was filtered out by the hard constraint: the answer ends here.
        finished.push(node);
      } else {
        // Every continuation was withheld (a repeat, a cut-off reply: not an answer): the answer
        // so far is still an answer, and it ends here; the withheld children stay in the tree.
        if (kids.every((k) => get(k).pruned || k.withheld)) finished.push(node);
        next.push(...kids);
      }
    }
    level = next.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  }

  const winner = rank.finalPick === 'deepest-level' ? deepestBest(beams, scored) : bestFinished(finished);
  const best: ScoredCandidate[] = [];
  for (let n = winner; n; n = n.candidate.parentId === null ? undefined : scored.get(n.candidate.parentId)) {
    best.unshift(n);
  }
  const ranking: Ranking = { best, scored };
  // Nothing written is an answer: the page says so and shows the evidence, never a non-answer.
  if (winner?.candidate.withheld) {
    ranking.best = [];
    ranking.withheld = [
      ...new Set(finished.flatMap((f) => (f.candidate.withheld ? [f.candidate.withheld.reason] : []))),
    ];
  }
  return { ranking, frontier, beams };
}

/**
 * The default: every path that ended competes, ties to the one that ended first. A path the
 * generator ended early (it said the answer was complete) is a complete answer, and ranks above
 * every path that stopped unfinished (finishedFirst); among either kind the mean path score
 * compares quality per segment, so a short, well-supported answer can beat a longer one whose
 * extra segments are weakly supported. The reference reads only the deepest level, so there a
 * path that ended early (its segment asked for nothing more) never wins, however good.
 */
function bestFinished(finished: readonly ScoredCandidate[]): ScoredCandidate | undefined {
  let winner: ScoredCandidate | undefined;
  for (const f of finished) {
    if (!winner || finishedFirst(f, winner) < 0) winner = f;
  }
  return winner;
}

/**
 * The reference's rule (run_long_form_static.py): the best node of the deepest non-empty beam
 * level. Within one level every path has the same length, so the mean ranks like the sum (and
 * like the reference's product when scores are positive); beams are already sorted best first.
 */
function deepestBest(
  beams: readonly string[][],
  scored: ReadonlyMap<string, ScoredCandidate>,
): ScoredCandidate | undefined {
  let fallback: ScoredCandidate | undefined;
  for (let d = beams.length - 1; d >= 0; d--) {
    const id = beams[d]?.[0];
    const node = id === undefined ? undefined : scored.get(id);
    // Beams put answers first: a withheld best means that level holds no answer.
    if (node && !node.candidate.withheld) return node;
    fallback ??= node;
  }
  return fallback;
}
