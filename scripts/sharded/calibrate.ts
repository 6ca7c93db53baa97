// Chooses how deep a question reads a sharded corpus by measuring it on the corpus itself.
// The tops a question must read to reach its nearest lists grow with the corpus (16 of 56 were
// enough at 100k passages; 1M needed 32 of 177 to reach the lists of 99 % of the true
// neighbours), and so does the rescoring depth its 1-bit codes need; no constant fits every
// size or every embedding model. So the writer takes some of its own passages as questions,
// keeps each one's exact 10 nearest passages while it streams the corpus, less the chunks next
// to it in its document (they repeat its overlapping words, which no real question does, and sit
// in its list: counted, they made the estimate 0.975 where new questions over real MiniLM vectors
// got 0.885; leaving out its whole document made it 0.866 where they got 0.982,
// docs/benchmarks-real.md), and replays
// the reader's routing and code ranking (src/library/sharded/probe.ts) over the written blocks
// for a ladder of depths: the cheapest depth whose recall reaches the target, with a margin for
// having measured it on a sample of questions, goes in the manifest.
import { jsKernel, type DotKernel } from '../../src/vector/dot-kernel';
import type { ProbeCalibration, ProbeDepth } from '../../src/library/sharded/format/probe-depth';
import { type CodeBasis, type CodeScore, rankTops, scorersFor } from '../../src/library/sharded/probe';

/**
 * Passages taken as questions, by default. Recall varies a lot from one question to the next
 * (standard deviation 0.10–0.14 at 300k and 1M passages), so the depth is chosen on a lower
 * confidence bound, and 200 keep that bound near the mean.
 */
export const CALIBRATION_QUERIES = 200;
/** One-sided 95 %: the chosen depth's mean recall less this many standard errors must reach the target. */
const CONFIDENCE_Z = 1.645;
/**
 * What one request costs beside its body, in the choice between depths: its headers both ways
 * (about 1 kB over HTTP/1.1, less over HTTP/2). Top blocks and lists are requests (those lying end
 * to end share one), so without it a small corpus's cheapest depth read nearly every top's 1 kB
 * block (48 of 56 at 100k) for a little recall that more lists give in fewer requests.
 */
export const REQUEST_COST = 1024;
/** Recall@10 against exact search that the chosen depth must reach, by default (the in-tab index's target). */
export const TARGET_RECALL = 0.95;
const NTOPS = [4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256];
// Up to 96 lists and 800 rescored rows: at 21M passages the 1-bit ranking needs that deep for
// 0.95 (bench/gpu/route-sim.py: 8 tops × 48 lists rescoring 800 reached 0.96).
// Finer codes (RaBitQ, 2–4 bits) order candidates well enough that a few dozen rows and fewer
// lists can reach the target: the ladder starts low for them.
const NPROBES = [8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256];
const RESCORES = [20, 30, 50, 100, 200, 400, 800];
const K = 10;

type Neighbour = { score: number; list: number; code: number };

/** A passage's document and its position there. */
export type Placed = { docId: string; index: number };

/** The same chunk or the one either side of it: overlapping chunks share words with it. */
const beside = (q: Placed | undefined, p: Placed) => !!q && q.docId === p.docId && Math.abs(q.index - p.index) <= 1;

/** Each question's exact K nearest other passages, kept while the writer streams the corpus (Q dot products a passage). */
export class NeighbourTracker {
  /** Each question's scores of list entries and sub-centroids, as the reader computes them. */
  readonly scorers: Array<{ list: CodeScore; sub: CodeScore }>;
  private readonly best: Neighbour[][];
  private readonly own: Neighbour[][];
  private readonly floor: Float64Array;
  private readonly factor = new Float32Array(1);
  /** The questions as the rows of the flat index's kernel: each passage is scored against all of them at once. */
  private readonly kernel: DotKernel;

  constructor(
    readonly questions: Float32Array,
    readonly dim: number,
    basis: CodeBasis,
    /** Each question's place: the chunks beside it in its document are not its neighbours. */
    private readonly places: readonly Placed[] = [],
    /**
     * 'beside' (a held-out passage): the chunks either side of it are not its neighbours;
     * 'document' (a pseudo-question, pseudo-questions.ts): no passage of its document is, nor a
     * candidate, as if the document were not in the corpus.
     */
    private readonly exclude: 'beside' | 'document' = 'beside',
  ) {
    const Q = questions.length / dim;
    this.kernel = jsKernel(dim);
    this.kernel.reserve(Q);
    this.kernel.data.set(questions.subarray(0, Q * dim));
    this.scorers = Array.from({ length: Q }, (_, i) => scorersFor(this.question(i), basis));
    this.best = Array.from({ length: Q }, () => []);
    this.own = Array.from({ length: Q }, () => []);
    this.floor = new Float64Array(Q).fill(-Infinity);
  }

  question(i: number): Float32Array {
    return this.questions.subarray(i * this.dim, (i + 1) * this.dim);
  }

  /** One passage (unit vector), the list it was filed in, its code and factor (as its list keeps them) and its place. */
  add(v: Float32Array, list: number, code: Uint8Array, factor: number, place?: Placed): void {
    this.factor[0] = factor;
    this.kernel.query.set(v);
    this.kernel.score(this.best.length);
    const scores = this.kernel.scores;
    for (let i = 0; i < this.best.length; i++) {
      const s = scores[i]!;
      if (this.exclude === 'document' && place && this.places[i]?.docId === place.docId) {
        this.own[i]!.push({ score: s, list, code: this.scorers[i]!.list(code, this.factor, 0) });
        continue;
      }
      // The question's own passage is not its neighbour: a question is new text near it.
      if (s <= this.floor[i]! || s > 1 - 1e-6 || (place && beside(this.places[i], place))) continue;
      const b = this.best[i]!;
      b.push({ score: s, list, code: this.scorers[i]!.list(code, this.factor, 0) });
      if (b.length > K) {
        b.sort((x, y) => y.score - x.score);
        b.pop();
      }
      if (b.length === K) this.floor[i] = Math.min(...b.map((n) => n.score));
    }
  }

  neighbours(i: number): Neighbour[] {
    return this.best[i]!;
  }

  /** Passages of question i's own document (pseudo-questions): not candidates, as if the document were not in the corpus. */
  ownPassages(i: number): Neighbour[] {
    return this.own[i]!;
  }
}

/** Codes as a block holds them: `codes` end to end, and their factors (RaBitQ; null for signs). */
export interface CodedBlock {
  codes: Uint8Array;
  factors: Float32Array | null;
}

export interface CalibrationCorpus {
  dim: number;
  /** int8 top centroids, as index.bin holds them. */
  topCentroids: Uint8Array;
  /** Sub-centroids (= lists) under each top; lists are numbered top-major. */
  subs: readonly number[];
  /** Top t's sub-centroids' codes and factors, as its centroid block holds them. */
  subCodes(t: number): CodedBlock;
  /** List c's passages' codes and factors, as lists.bin holds them. */
  listCodes(c: number): CodedBlock;
  /** Entries in list c. */
  listCount(c: number): number;
  blockBytes(t: number): number;
  listBytes(c: number): number;
  rowBytes: number;
}

export interface CalibrationResult extends ProbeCalibration {
  /** Bytes of centroid blocks, lists and rows the chosen depth reads a question, on average (the word index comes on top). */
  vectorBytes: number;
  /** Every depth tried: mean recall, its lower confidence bound, vector bytes a question, and those plus REQUEST_COST a block or list request. */
  tried: Array<
    ProbeDepth & { recall: number; lower: number; vectorBytes: number; blockRequests: number; cost: number }
  >;
}

/** Replays the reader's routing and ranking for each question over a ladder of depths; picks the cheapest that reaches `target`. */
export function calibrate(
  tracker: NeighbourTracker,
  corpus: CalibrationCorpus,
  target = TARGET_RECALL,
): CalibrationResult {
  const { dim, subs } = corpus;
  const T = subs.length;
  const L = subs.reduce((a, b) => a + b, 0);
  const firstList: number[] = [];
  subs.reduce((at, k) => (firstList.push(at), at + k), 0);
  const ntops = ladder(NTOPS, T);
  const nprobes = ladder(NPROBES, L);
  const configs = ntops.flatMap((ntop) =>
    nprobes.flatMap((nprobe) =>
      RESCORES.map((rescore) => ({ ntop, nprobe, rescore, sum: 0, squares: 0, bytes: 0, requests: 0 })),
    ),
  );
  const Q = tracker.scorers.length;
  for (let i = 0; i < Q; i++) {
    const q = tracker.question(i);
    const score = tracker.scorers[i]!;
    const near = tracker.neighbours(i);
    const own = tracker.ownPassages(i);
    const order = rankTops(q, corpus.topCentroids, T, dim);
    // Each list's code scores for this question, best first (read once, shared by every depth).
    const listScores = new Map<number, Float64Array>();
    const scoresOf = (c: number) => {
      let s = listScores.get(c);
      if (!s) {
        const { codes, factors } = corpus.listCodes(c);
        s = Float64Array.from({ length: corpus.listCount(c) }, (_, r) => score.list(codes, factors, r))
          .sort()
          .reverse();
        listScores.set(c, s);
      }
      return s;
    };
    const subScores: Array<[number, number]> = [];
    let topsRead = 0;
    let blockBytes = 0;
    for (const ntop of ntops) {
      for (; topsRead < ntop; topsRead++) {
        const t = order[topsRead]!;
        const { codes, factors } = corpus.subCodes(t);
        for (let j = 0; j < subs[t]!; j++) subScores.push([score.sub(codes, factors, j), firstList[t]! + j]);
        blockBytes += corpus.blockBytes(t);
      }
      const ranked = [...subScores].sort((a, b) => b[0] - a[0] || a[1] - b[1]);
      for (const nprobe of nprobes) {
        const probed = ranked.slice(0, nprobe).map(([, c]) => c);
        const inProbed = new Set(probed);
        const listBytes = probed.reduce((s, c) => s + corpus.listBytes(c), 0);
        // Requests: blocks that lie end to end share one (tops and lists are numbered in file order).
        const requests = runs(order.slice(0, Math.min(ntop, T))) + runs(probed);
        // A neighbour's rank among the candidates by code: those scoring above it, over every probed
        // list, less the question's own document's passages (left out of the corpus, for pseudo-questions).
        const ranks = near.map((n) =>
          inProbed.has(n.list)
            ? probed.reduce((r, c) => r + above(scoresOf(c), n.code), 0) -
              own.filter((o) => inProbed.has(o.list) && o.code > n.code).length
            : Infinity,
        );
        for (const cfg of configs) {
          if (cfg.ntop !== ntop || cfg.nprobe !== nprobe) continue;
          // A question whose corpus has fewer than K other passages counts for what it has.
          const r = near.length ? ranks.filter((x) => x < cfg.rescore).length / near.length : 1;
          cfg.sum += r;
          cfg.squares += r * r;
          cfg.bytes += blockBytes + listBytes + cfg.rescore * corpus.rowBytes;
          cfg.requests += requests;
        }
      }
    }
  }
  const tried = configs.map(({ ntop, nprobe, rescore, sum, squares, bytes, requests }) => {
    const recall = Q ? sum / Q : 1;
    const variance = Q > 1 ? Math.max(0, (squares - Q * recall * recall) / (Q - 1)) : 0;
    const lower = Q ? recall - CONFIDENCE_Z * Math.sqrt(variance / Q) : 1;
    const vectorBytes = Q ? bytes / Q : 0;
    return {
      ntop,
      nprobe,
      rescore,
      recall,
      lower,
      vectorBytes,
      blockRequests: Q ? requests / Q : 0,
      cost: vectorBytes + REQUEST_COST * (Q ? requests / Q : 0),
    };
  });
  const reaching = tried.filter((c) => c.lower >= target).sort((a, b) => a.cost - b.cost);
  // None reaches it: the best recall the ladder found, the cheapest of those.
  const chosen = reaching[0] ?? [...tried].sort((a, b) => b.lower - a.lower || a.cost - b.cost)[0]!;
  return {
    ntop: chosen.ntop,
    nprobe: chosen.nprobe,
    rescore: chosen.rescore,
    recall: round3(chosen.recall),
    lower: round3(chosen.lower),
    target,
    queries: Q,
    vectorBytes: Math.round(chosen.vectorBytes),
    tried,
  };
}

/** The ladder's steps below `max`, and `max` itself when the ladder passes it. */
function ladder(steps: readonly number[], max: number): number[] {
  const below = steps.filter((s) => s < max);
  return steps.some((s) => s >= max) ? [...below, max] : below;
}

/** Runs of consecutive numbers among `xs`: the range requests that read those blocks. */
function runs(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.filter((x, i) => i === 0 || x !== sorted[i - 1]! + 1).length;
}

/** How many of `desc` (sorted high to low) are above `x`. */
function above(desc: Float64Array, x: number): number {
  let lo = 0,
    hi = desc.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (desc[mid]! > x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
