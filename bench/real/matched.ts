// Synthetic vectors drawn to match real ones' measured statistics, for sizes past what is embedded
// here (1M: embedding it on this machine would take days). Fitted on the real vectors:
//   topics     a spherical k-means of a sample; each topic's mean (not normalised: it keeps the
//              corpus's common offset, which sets the random-pair cosine) and its share of rows;
//   residuals  the covariance of rows around their topic's mean (all dimensions, its eigenvectors
//              by Jacobi rotations), and each topic's residual scale;
//   questions  one more noise scale, found so that questions' nearest-passage cosines match the
//              real held-out questions' at the fitted size.
//   documents  rows come in documents of the real mean size, sharing part of their noise (fitted
//              so the median nearest-row cosine matches: a real document's chunks overlap).
// A row is its topic's mean plus Gaussian noise of that covariance and scale, normalised.
import { mulberry32 } from '../../src/core/mulberry32';
import { sphericalKMeans, CentroidAssigner } from '../../src/vector/kmeans';
import { FlatIndex } from '../../src/vector/flat-index';
import type { VectorSet } from '../scale/vectors';

export interface MatchedModel {
  dim: number;
  /** Topic means, `k × dim`. */
  means: Float32Array;
  /** Cumulative share of rows per topic. */
  cumulative: Float64Array;
  /** Each topic's residual scale (RMS residual length over the global RMS). */
  scale: Float32Array;
  /** Residual covariance eigenvectors (`dim × dim`, row i the i-th) and the square roots of their eigenvalues. */
  basis: Float32Array;
  sd: Float32Array;
  /** Noise multiplier for questions (fitted by `fitQuestionNoise`). */
  questionNoise: number;
  /** Share of the residual variance a document's passages share (fitted by `fitDocShare`). */
  docShare: number;
  /** Passages a document has on average (the real corpus's). */
  docSize: number;
}

function gaussian(r: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = Math.max(r(), 1e-12),
      v = r();
    const m = Math.sqrt(-2 * Math.log(u));
    spare = m * Math.sin(2 * Math.PI * v);
    return m * Math.cos(2 * Math.PI * v);
  };
}

/** Eigenvectors (rows of the result) and eigenvalues of the symmetric `a` (`d × d`), by cyclic Jacobi rotations. */
export function symmetricEigen(
  a: Float64Array,
  d: number,
  sweeps = 12,
): { vectors: Float64Array; values: Float64Array } {
  const m = Float64Array.from(a);
  const v = new Float64Array(d * d);
  for (let i = 0; i < d; i++) v[i * d + i] = 1;
  for (let sweep = 0; sweep < sweeps; sweep++) {
    let off = 0;
    for (let p = 0; p < d; p++) for (let q = p + 1; q < d; q++) off += m[p * d + q]! ** 2;
    if (off < 1e-18) break;
    for (let p = 0; p < d; p++)
      for (let q = p + 1; q < d; q++) {
        const apq = m[p * d + q]!;
        if (Math.abs(apq) < 1e-15) continue;
        const theta = (m[q * d + q]! - m[p * d + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1),
          s = t * c;
        for (let k = 0; k < d; k++) {
          const mkp = m[k * d + p]!,
            mkq = m[k * d + q]!;
          m[k * d + p] = c * mkp - s * mkq;
          m[k * d + q] = s * mkp + c * mkq;
        }
        for (let k = 0; k < d; k++) {
          const mpk = m[p * d + k]!,
            mqk = m[q * d + k]!;
          m[p * d + k] = c * mpk - s * mqk;
          m[q * d + k] = s * mpk + c * mqk;
        }
        for (let k = 0; k < d; k++) {
          const vkp = v[k * d + p]!,
            vkq = v[k * d + q]!;
          v[k * d + p] = c * vkp - s * vkq;
          v[k * d + q] = s * vkp + c * vkq;
        }
      }
  }
  const values = Float64Array.from({ length: d }, (_, i) => m[i * d + i]!);
  // Columns of v are the eigenvectors: return them as rows.
  const vectors = new Float64Array(d * d);
  for (let i = 0; i < d; i++) for (let k = 0; k < d; k++) vectors[i * d + k] = v[k * d + i]!;
  return { vectors, values };
}

/** Fits the model to `n` real rows (a sample of up to `sampleRows`), `topics` topics. */
export function fitMatched(
  row: (i: number) => Float32Array,
  n: number,
  dim: number,
  topics = 2000,
  sampleRows = 40000,
): MatchedModel {
  const S = Math.min(n, sampleRows);
  const sample = new Float32Array(S * dim);
  for (let i = 0; i < S; i++) sample.set(row(Math.floor((i * n) / S)), i * dim);
  const k = Math.min(topics, Math.floor(S / 10));
  const model = sphericalKMeans(sample, dim, k, 6);
  const assigner = new CentroidAssigner(model);
  const owner = Int32Array.from({ length: S }, (_, i) => assigner.nearest(sample.subarray(i * dim, (i + 1) * dim))[0]!);
  const sums = new Float64Array(k * dim);
  const counts = new Float64Array(k);
  for (let i = 0; i < S; i++) {
    counts[owner[i]!]!++;
    for (let j = 0; j < dim; j++) sums[owner[i]! * dim + j]! += sample[i * dim + j]!;
  }
  const means = Float32Array.from(sums, (x, at) => x / Math.max(1, counts[Math.floor(at / dim)]!));
  const cov = new Float64Array(dim * dim);
  const sq = new Float64Array(k);
  const r = new Float64Array(dim);
  for (let i = 0; i < S; i++) {
    const c = owner[i]!;
    let len = 0;
    for (let j = 0; j < dim; j++) {
      r[j] = sample[i * dim + j]! - means[c * dim + j]!;
      len += r[j]! * r[j]!;
    }
    sq[c]! += len;
    for (let a = 0; a < dim; a++) {
      const ra = r[a]!;
      for (let b = a; b < dim; b++) cov[a * dim + b]! += ra * r[b]!;
    }
  }
  for (let a = 0; a < dim; a++)
    for (let b = a; b < dim; b++) {
      cov[a * dim + b]! /= S;
      cov[b * dim + a] = cov[a * dim + b]!;
    }
  const global = Math.sqrt(sq.reduce((x, y) => x + y, 0) / S);
  const scale = Float32Array.from(sq, (s, c) => (counts[c]! > 1 ? Math.sqrt(s / counts[c]!) / global : 1));
  const { vectors, values } = symmetricEigen(cov, dim);
  const cumulative = new Float64Array(k);
  counts.reduce((acc, c, i) => (cumulative[i] = acc + c / S), 0);
  return {
    dim,
    means,
    cumulative,
    scale,
    basis: Float32Array.from(vectors),
    sd: Float32Array.from(values, (x) => Math.sqrt(Math.max(0, x))),
    questionNoise: 1,
    docShare: 0,
    docSize: 1,
  };
}

/**
 * `count` rows drawn from the model, in documents: a document picks a topic and an offset from
 * its mean (a share `model.docShare` of the residual variance), its passages (`model.docSize` on
 * average) each add their own noise (the rest), as a real document's overlapping chunks sit close
 * together. `noise` scales both (questions use `model.questionNoise`, one passage a document).
 */
export function drawMatched(
  model: MatchedModel,
  count: number,
  seed: number,
  noise = 1,
  docSize = model.docSize,
): VectorSet {
  const { dim, means, cumulative, scale, basis, sd, docShare } = model;
  const r = mulberry32(seed);
  const g = gaussian(r);
  const data = new Float32Array(count * dim);
  const doc = new Float32Array(dim);
  const addNoise = (v: Float32Array, s: number) => {
    for (let e = 0; e < dim; e++) {
      const c = g() * sd[e]! * s;
      if (c === 0) continue;
      const o = e * dim;
      for (let j = 0; j < dim; j++) v[j]! += c * basis[o + j]!;
    }
  };
  let left = 0;
  let topic = 0;
  for (let i = 0; i < count; i++) {
    if (left <= 0) {
      const u = r();
      let lo = 0,
        hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid]! < u) lo = mid + 1;
        else hi = mid;
      }
      topic = lo;
      doc.set(means.subarray(lo * dim, (lo + 1) * dim));
      addNoise(doc, scale[lo]! * noise * Math.sqrt(docShare));
      // Geometric document sizes with the fitted mean.
      left = Math.max(1, Math.ceil(Math.log(1 - r()) / Math.log(1 - 1 / Math.max(1, docSize))));
    }
    left--;
    const v = data.subarray(i * dim, (i + 1) * dim);
    v.set(doc);
    addNoise(v, scale[topic]! * noise * Math.sqrt(1 - docShare));
    let norm = 0;
    for (let j = 0; j < dim; j++) norm += v[j]! * v[j]!;
    const inv = 1 / Math.sqrt(norm);
    for (let j = 0; j < dim; j++) v[j]! *= inv;
  }
  return { dim, n: count, data, row: (i) => data.subarray(i * dim, (i + 1) * dim) };
}

/** Median cosine of a row's nearest other row (among the first `scan` rows), over `samples` rows. */
export function medianNearest(rows: VectorSet, samples = 200, scan = 25000): number {
  const out: number[] = [];
  const n = Math.min(rows.n, scan);
  for (let t = 0; t < samples; t++) {
    const a = Math.floor((t * n) / samples);
    const va = rows.row(a);
    let best = -1;
    for (let i = 0; i < n; i++) {
      if (i === a) continue;
      const v = rows.row(i);
      let d = 0;
      for (let j = 0; j < rows.dim; j++) d += va[j]! * v[j]!;
      if (d > best) best = d;
    }
    out.push(best);
  }
  return out.sort((x, y) => x - y)[Math.floor(out.length / 2)]!;
}

/** The document share of the residual that brings drawn rows' median nearest-row cosine nearest `target` (at `n` rows). */
export function fitDocShare(model: MatchedModel, n: number, target: number): number {
  let best = 0,
    gap = Infinity;
  for (const share of [0, 0.3, 0.5, 0.65, 0.8, 0.9]) {
    const got = medianNearest(drawMatched({ ...model, docShare: share }, Math.min(n, 25000), 77));
    if (Math.abs(got - target) < gap) {
      gap = Math.abs(got - target);
      best = share;
    }
  }
  return best;
}

/** Mean cosine of each question's nearest row. */
export function nearestCosine(rows: VectorSet, questions: Float32Array[]): number {
  const flat = new FlatIndex(rows.dim);
  flat.add(
    Array.from({ length: rows.n }, (_, i) => String(i)),
    Array.from({ length: rows.n }, (_, i) => rows.row(i)),
  );
  return questions.reduce((s, q) => s + flat.search(q, 1)[0]!.score, 0) / questions.length;
}

/** The question noise that brings drawn questions' nearest-row cosine (against `rows`) nearest `target`. */
export function fitQuestionNoise(model: MatchedModel, rows: VectorSet, target: number, questions = 200): number {
  let best = 1,
    gap = Infinity;
  for (const noise of [1, 1.25, 1.5, 1.75, 2, 2.5, 3]) {
    const qs = drawMatched(model, questions, 4242, noise, 1);
    const got = nearestCosine(
      rows,
      Array.from({ length: qs.n }, (_, i) => qs.row(i)),
    );
    if (Math.abs(got - target) < gap) {
      gap = Math.abs(got - target);
      best = noise;
    }
  }
  return best;
}

/** Per-dimension variance of a set's rows. */
export function dimVariance(rows: VectorSet, sample = 20000): Float64Array {
  const n = Math.min(rows.n, sample);
  const mean = new Float64Array(rows.dim),
    sq = new Float64Array(rows.dim);
  for (let i = 0; i < n; i++) {
    const v = rows.row(Math.floor((i * rows.n) / n));
    for (let j = 0; j < rows.dim; j++) {
      mean[j]! += v[j]!;
      sq[j]! += v[j]! * v[j]!;
    }
  }
  return Float64Array.from(mean, (m, j) => sq[j]! / n - (m / n) ** 2);
}
