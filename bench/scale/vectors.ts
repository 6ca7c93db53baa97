// Synthetic vectors for the scale bench, in one contiguous buffer (1M × 384 is 1.5 GB;
// a million separate arrays would add their own overhead to every measurement).
//
// "Embedding-like": sentence embeddings are neither uniform nor isotropic. They share a
// common direction (random pairs of MiniLM passages have cosine around 0.1–0.2), most of
// their variance lies in a few dozen directions, and passages come in topics. So each
// vector is  mean + topic centre + a low-rank part + isotropic noise, normalised:
//   mean      a fixed random direction of length MEAN,
//   centre    one of TOPICS topic centres, each itself  low-rank(LOWRANK_TOPIC) + noise,
//   low-rank  Σ_i g_i λ_i u_i over shared random directions u_i with λ_i = 1/√(i+1)
//             (RANK of them for topic centres, the first ROW_RANK for each row),
//   noise     isotropic Gaussian.
// Queries are fresh draws from the same model (not copies of stored rows).
// "Uniform": Gaussian directions, the hard case (no structure for any index to use).
import { mulberry32 } from '../../src/core/mulberry32';

export interface VectorSet {
  dim: number;
  n: number;
  data: Float32Array;
  row(i: number): Float32Array;
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

function set(dim: number, n: number, data: Float32Array): VectorSet {
  return { dim, n, data, row: (i) => data.subarray(i * dim, (i + 1) * dim) };
}

function normaliseInPlace(v: Float32Array): void {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j]! * v[j]!;
  const inv = 1 / Math.sqrt(s);
  for (let j = 0; j < v.length; j++) v[j]! *= inv;
}

export function uniformVectors(n: number, dim: number, seed: number): VectorSet {
  const g = gaussian(mulberry32(seed));
  const data = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    const v = data.subarray(i * dim, (i + 1) * dim);
    for (let j = 0; j < dim; j++) v[j] = g();
    normaliseInPlace(v);
  }
  return set(dim, n, data);
}

const MEAN = 0.45,
  TOPICS = 2000,
  RANK = 48,
  ROW_RANK = 16,
  TOPIC_SPREAD = 0.9,
  TOPIC_NOISE = 0.35,
  ROW_SPREAD = 0.45,
  ROW_NOISE = 0.3;

export interface EmbeddingModel {
  draw(out: Float32Array): void;
}

/**
 * The generative model; `seed` fixes the mean, directions and topics. With `drawSeed`, draws
 * come from their own generator (two models of the same seed then give the same topics and
 * different rows: a corpus streamed twice, and questions that are not copies of its rows).
 */
export function embeddingModel(dim: number, seed: number, drawSeed?: number): EmbeddingModel {
  let r = mulberry32(seed);
  let g = gaussian(r);
  const unit = () => {
    const v = Float32Array.from({ length: dim }, g);
    normaliseInPlace(v);
    return v;
  };
  const mean = unit().map((x) => x * MEAN);
  const dirs = Array.from({ length: RANK }, unit);
  const lambda = Array.from({ length: RANK }, (_, i) => 1 / Math.sqrt(i + 1));
  const lowRank = (out: Float32Array, scale: number, gg: () => number, rank = RANK) => {
    for (let i = 0; i < rank; i++) {
      const c = gg() * lambda[i]! * scale;
      const u = dirs[i]!;
      for (let j = 0; j < dim; j++) out[j]! += c * u[j]!;
    }
  };
  const iso = 1 / Math.sqrt(dim);
  const topics = Array.from({ length: TOPICS }, () => {
    const c = new Float32Array(dim);
    lowRank(c, TOPIC_SPREAD, g);
    for (let j = 0; j < dim; j++) c[j]! += g() * TOPIC_NOISE * iso;
    return c;
  });
  if (drawSeed !== undefined) {
    r = mulberry32(drawSeed);
    g = gaussian(r);
  }
  return {
    draw(out) {
      const t = topics[Math.floor(r() * TOPICS)]!;
      for (let j = 0; j < dim; j++) out[j] = mean[j]! + t[j]! + g() * ROW_NOISE * iso;
      lowRank(out, ROW_SPREAD, g, ROW_RANK);
      normaliseInPlace(out);
    },
  };
}

export function embeddingVectors(model: EmbeddingModel, n: number, dim: number): VectorSet {
  const data = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) model.draw(data.subarray(i * dim, (i + 1) * dim));
  return set(dim, n, data);
}

/** Mean cosine of random pairs and of each sample's nearest row: the two numbers that say how "embedding-like" a set is. */
export function describe(vs: VectorSet, samples = 50): { randomPair: number; nearest: number } {
  const r = mulberry32(99);
  const dot = (a: number, b: number) => {
    let s = 0;
    for (let j = 0; j < vs.dim; j++) s += vs.data[a * vs.dim + j]! * vs.data[b * vs.dim + j]!;
    return s;
  };
  let pair = 0,
    near = 0;
  const scan = Math.min(vs.n, 20000);
  for (let s = 0; s < samples; s++) {
    const a = Math.floor(r() * vs.n),
      b = Math.floor(r() * vs.n);
    pair += dot(a, b);
    let best = -1;
    for (let i = 0; i < scan; i++) if (i !== a) best = Math.max(best, dot(a, i));
    near += best;
  }
  return { randomPair: pair / samples, nearest: near / samples };
}
