// The sharded corpus's coarse structure: T top centroids, each owning a block of list
// centroids (lists numbered top-major), and the assigner that files a passage in a list.
// Three ways to get it: one flat k-means over a sample (small corpora), a hierarchical one
// (tops first, then each top's lists, then a few rounds in which all lists compete for the
// sample), or centroids computed elsewhere (faiss in the embedding job) grouped under tops.
import { FlatIndex } from '../../src/vector/flat-index';
import { CentroidAssigner, sphericalKMeans } from '../../src/vector/kmeans';

export interface Coarse {
  dim: number;
  /** `T × dim` unit rows. */
  tops: Float32Array;
  /** Per top, its lists' centroids (`k × dim`); list numbers run top by top. */
  subs: Float32Array[];
  /** For centroids given from outside: their row → list number here. */
  listOf?: Int32Array;
}

const rowOf = (f: Float32Array, i: number, dim: number) => f.subarray(i * dim, (i + 1) * dim);

function normaliseRows(sums: Float64Array, dim: number, out: Float32Array, keep?: Float32Array): void {
  const k = sums.length / dim;
  for (let c = 0; c < k; c++) {
    let s = 0;
    for (let j = 0; j < dim; j++) s += sums[c * dim + j]! ** 2;
    if (s === 0) {
      if (keep) out.set(rowOf(keep, c, dim), c * dim);
      continue;
    }
    const inv = 1 / Math.sqrt(s);
    for (let j = 0; j < dim; j++) out[c * dim + j] = sums[c * dim + j]! * inv;
  }
}

function indexOf(f: Float32Array, dim: number): FlatIndex {
  const k = f.length / dim;
  const index = new FlatIndex(dim);
  index.add(
    Array.from({ length: k }, (_, c) => String(c)),
    Array.from({ length: k }, (_, c) => rowOf(f, c, dim)),
  );
  return index;
}

/**
 * Lists `centroids` (`L × dim`) under tops: by `top` (each list's top, any whole numbers) when
 * given, the top centroid being the normalised mean of its lists'; else by a k-means over the
 * centroids into `tops` groups, each list under its nearest (O(L × T × dim) an iteration).
 * Tops that no list chose are dropped.
 */
export function groupLists(
  centroids: Float32Array,
  dim: number,
  tops: number,
  iterations: number,
  top?: ArrayLike<number>,
  weights?: ArrayLike<number>,
): Coarse {
  const L = centroids.length / dim;
  let owner: Int32Array;
  let topRows: Float32Array;
  if (top) {
    const ids = [...new Set(Array.from(top))].sort((a, b) => a - b);
    const slot = new Map(ids.map((t, i) => [t, i]));
    owner = Int32Array.from(Array.from(top), (t) => slot.get(t)!);
    topRows = new Float32Array(ids.length * dim);
  } else {
    const grouped = sphericalKMeans(centroids, dim, Math.min(tops, L), iterations);
    const assigner = new CentroidAssigner(grouped);
    owner = Int32Array.from({ length: L }, (_, c) => assigner.nearest(rowOf(centroids, c, dim))[0]!);
    topRows = grouped.centroids;
  }
  const T = topRows.length / dim;
  if (top) {
    const sums = new Float64Array(T * dim);
    for (let c = 0; c < L; c++) {
      const w = weights ? weights[c]! + 1 : 1;
      for (let j = 0; j < dim; j++) sums[owner[c]! * dim + j]! += w * centroids[c * dim + j]!;
    }
    normaliseRows(sums, dim, topRows);
  }
  return arrange(centroids, dim, owner, topRows);
}

/**
 * `items` (rows of `rows`) in a chain that steps each time to the most similar one not yet placed,
 * from the first: neighbours end up next to each other.
 */
function chain(rows: Float32Array, items: readonly number[], dim: number): number[] {
  const left = new Set(items);
  const out: number[] = [];
  let at = items[0];
  while (at !== undefined) {
    out.push(at);
    left.delete(at);
    let next: number | undefined;
    let best = -Infinity;
    for (const o of left) {
      let s = 0;
      for (let j = 0; j < dim; j++) s += rows[at * dim + j]! * rows[o * dim + j]!;
      if (s > best) {
        best = s;
        next = o;
      }
    }
    at = next;
  }
  return out;
}

/**
 * Builds the top-major layout from each list's top; empty tops are dropped. Tops, and each top's
 * lists, are put in a chain of nearest neighbours: the lists a question probes are then often
 * next to each other in lists.bin, and lists that lie end to end share one range request.
 */
function arrange(centroids: Float32Array, dim: number, owner: Int32Array, topRows: Float32Array): Coarse {
  const T = topRows.length / dim;
  const members: number[][] = Array.from({ length: T }, () => []);
  owner.forEach((t, c) => members[t]!.push(c));
  const used = members.map((m, t) => (m.length ? t : -1)).filter((t) => t >= 0);
  const kept = chain(topRows, used, dim).map((t) => ({ m: chain(centroids, members[t]!, dim), t }));
  const tops = new Float32Array(kept.length * dim);
  const listOf = new Int32Array(owner.length);
  let next = 0;
  const subs = kept.map(({ m, t }, i) => {
    tops.set(rowOf(topRows, t, dim), i * dim);
    const s = new Float32Array(m.length * dim);
    m.forEach((c, k) => {
      s.set(rowOf(centroids, c, dim), k * dim);
      listOf[c] = next++;
    });
    return s;
  });
  return { dim, tops, subs, listOf };
}

/** One flat k-means for all lists, then the lists grouped under tops. O(sample × lists × dim) an iteration. */
export function trainFlat(sample: Float32Array, dim: number, lists: number, tops: number, iterations: number): Coarse {
  const flat = sphericalKMeans(sample, dim, lists, iterations);
  const { listOf: _drop, ...coarse } = groupLists(flat.centroids, dim, tops, iterations);
  return coarse;
}

/**
 * Tops by k-means on part of the sample; each top's lists by k-means on the sample rows
 * nearest it (as many lists as its share of the sample); then `refine` rounds over the whole
 * sample in which each row goes to the nearest list among its `probeTops` nearest tops' (so
 * the lists of neighbouring tops compete for the rows between them), the lists move to their
 * means, and each list to its nearest top. O(sample × (T + probeTops × lists / T) × dim) a round.
 */
export function trainHierarchical(
  sample: Float32Array,
  dim: number,
  lists: number,
  tops: number,
  iterations: number,
  probeTops: number,
  refine = 4,
): Coarse {
  const S = sample.length / dim;
  const T0 = Math.max(1, Math.min(tops, lists, S));
  // The tops need far fewer rows than the lists: 64 a top, evenly spread over the (random) sample.
  const topRows = Math.min(S, 64 * T0);
  const topSample = new Float32Array(topRows * dim);
  for (let i = 0; i < topRows; i++) topSample.set(rowOf(sample, Math.floor((i * S) / topRows), dim), i * dim);
  const topModel = sphericalKMeans(topSample, dim, T0, iterations);
  const topIndex = indexOf(topModel.centroids, dim);
  const T = topModel.centroids.length / dim;
  const owner = new Int32Array(S);
  const members = new Uint32Array(T);
  for (let r = 0; r < S; r++) members[(owner[r] = Number(topIndex.search(rowOf(sample, r, dim), 1)[0]!.id))]!++;
  const parts: Float32Array[] = [];
  const listTop: number[] = [];
  for (let t = 0; t < T; t++) {
    const m = members[t]!;
    if (!m) continue;
    const rows = new Float32Array(m * dim);
    for (let r = 0, i = 0; r < S; r++) if (owner[r] === t) rows.set(rowOf(sample, r, dim), i++ * dim);
    const k = Math.max(1, Math.min(m, Math.round((lists * m) / S)));
    const model = sphericalKMeans(rows, dim, k, iterations);
    parts.push(model.centroids);
    for (let c = 0; c < model.centroids.length / dim; c++) listTop.push(t);
  }
  const L = listTop.length;
  const centroids = new Float32Array(L * dim);
  parts.reduce((at, p) => (centroids.set(p, at), at + p.length), 0);
  let coarse = arrange(centroids, dim, Int32Array.from(listTop), topModel.centroids);
  for (let round = 0; round < refine; round++) coarse = refineRound(coarse, sample, probeTops);
  // Then the tops as the flat path makes them: a k-means over the lists' centroids, each list under
  // its nearest (O(L × T × dim) an iteration: seconds at 1M, minutes at 21M).
  const { listOf: _drop, ...out } = groupLists(flatLists(coarse), dim, T, iterations);
  return out;
}

/** One round of Lloyd's update with the approximate (probeTops) assignment, then lists regrouped under their nearest tops. */
function refineRound(coarse: Coarse, sample: Float32Array, probeTops: number): Coarse {
  const { dim } = coarse;
  const S = sample.length / dim;
  const all = flatLists(coarse);
  const L = all.length / dim;
  const assigner = new ListAssigner(coarse, probeTops);
  const sums = new Float64Array(L * dim);
  const counts = new Uint32Array(L);
  for (let r = 0; r < S; r++) {
    const v = rowOf(sample, r, dim);
    const c = assigner.nearest(v);
    counts[c]!++;
    for (let j = 0; j < dim; j++) sums[c * dim + j]! += v[j]!;
  }
  const moved = new Float32Array(L * dim);
  normaliseRows(sums, dim, moved, all);
  // Lists to their nearest top; each top to the (row-weighted) mean of its lists.
  const topIndex = indexOf(coarse.tops, dim);
  const owner = Int32Array.from({ length: L }, (_, c) => Number(topIndex.search(rowOf(moved, c, dim), 1)[0]!.id));
  const T = coarse.tops.length / dim;
  const topSums = new Float64Array(T * dim);
  for (let c = 0; c < L; c++)
    for (let j = 0; j < dim; j++) topSums[owner[c]! * dim + j]! += (counts[c]! + 1) * moved[c * dim + j]!;
  const topRows = new Float32Array(T * dim);
  normaliseRows(topSums, dim, topRows, coarse.tops);
  return arrange(moved, dim, owner, topRows);
}

/** All list centroids, top-major (`L × dim`). */
export function flatLists(coarse: Coarse): Float32Array {
  const L = coarse.subs.reduce((s, f) => s + f.length / coarse.dim, 0);
  const all = new Float32Array(L * coarse.dim);
  coarse.subs.reduce((at, s) => (all.set(s, at), at + s.length), 0);
  return all;
}

/**
 * Files a vector in a list: the nearest list of all (`probeTops` = 'all', O(L × dim)), or the
 * nearest among the lists of its `probeTops` nearest tops (O((T + probeTops × L / T) × dim)).
 */
export class ListAssigner {
  private readonly all?: FlatIndex;
  private readonly topIndex?: FlatIndex;
  private readonly perTop: FlatIndex[] = [];
  private readonly first: number[] = [];
  constructor(
    coarse: Coarse,
    readonly probeTops: number | 'all',
  ) {
    const { dim } = coarse;
    if (probeTops === 'all' || probeTops >= coarse.subs.length) {
      this.all = indexOf(flatLists(coarse), dim);
      return;
    }
    this.topIndex = indexOf(coarse.tops, dim);
    let at = 0;
    for (const s of coarse.subs) {
      this.first.push(at);
      this.perTop.push(indexOf(s, dim));
      at += s.length / dim;
    }
  }
  nearest(v: Float32Array): number {
    if (this.all) return Number(this.all.search(v, 1)[0]!.id);
    let best = -1,
      bestScore = -Infinity;
    for (const h of this.topIndex!.search(v, this.probeTops as number)) {
      const t = Number(h.id);
      const hit = this.perTop[t]!.search(v, 1)[0]!;
      if (hit.score > bestScore) {
        bestScore = hit.score;
        best = this.first[t]! + Number(hit.id);
      }
    }
    return best;
  }
}
