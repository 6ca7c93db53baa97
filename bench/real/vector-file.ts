// Reads the cached real-corpus vectors (bench/real/embed-corpus.ts writes them): row-major
// float32, 384 per passage, as many whole rows as the file holds.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_FILES, realCorpusDir } from './corpus';

export const REAL_DIM = 384;

export interface CachedVectors {
  n: number;
  data: Float32Array;
  row(i: number): Float32Array;
}

export function readCachedVectors(file: string, limit = Infinity): CachedVectors | null {
  const path = join(realCorpusDir(), file);
  if (!existsSync(path)) return null;
  const buf = readFileSync(path);
  const n = Math.min(limit, Math.floor(buf.byteLength / (REAL_DIM * 4)));
  const data = new Float32Array(buf.buffer, buf.byteOffset, n * REAL_DIM);
  return { n, data, row: (i) => data.subarray(i * REAL_DIM, (i + 1) * REAL_DIM) };
}

export const cachedPassageVectors = (variant: 'fp32' | 'q8', limit?: number) =>
  readCachedVectors(CORPUS_FILES.vectors(variant), limit);
export const cachedQueryVectors = (variant: 'fp32' | 'q8') => readCachedVectors(CORPUS_FILES.queryVectors(variant));

/** Exact top-k ids (row numbers) by dot product: the reference every approximation is measured against. */
export function exactTopK(lib: CachedVectors, q: Float32Array, k: number, n = lib.n): number[] {
  const best: Array<[number, number]> = [];
  const d = lib.data;
  for (let i = 0; i < n; i++) {
    let s = 0;
    const o = i * REAL_DIM;
    for (let j = 0; j < REAL_DIM; j++) s += d[o + j]! * q[j]!;
    if (best.length < k || s > best[best.length - 1]![0]) {
      best.push([s, i]);
      best.sort((a, b) => b[0] - a[0]);
      if (best.length > k) best.pop();
    }
  }
  return best.map((b) => b[1]);
}
