// Spherical k-means (cosine): the coarse structure of a sharded corpus, trained on a
// sample. Centroids are unit vectors; a row belongs to the centroid with the highest dot.
// Assignment scans the centroids with the flat index's kernel (WASM SIMD where available).
import { FlatIndex } from './flat-index';

export interface KMeansResult {
  dim: number;
  /** `k × dim`, row-major, unit rows. */
  centroids: Float32Array;
}

/** The nearest centroid of each row: an index over the centroids, searched one row at a time. */
export class CentroidAssigner {
  private readonly index: FlatIndex;
  constructor(readonly model: KMeansResult) {
    const k = model.centroids.length / model.dim;
    this.index = new FlatIndex(model.dim);
    this.index.add(
      Array.from({ length: k }, (_, c) => String(c)),
      Array.from({ length: k }, (_, c) => model.centroids.subarray(c * model.dim, (c + 1) * model.dim)),
    );
  }
  nearest(v: Float32Array, n = 1): number[] {
    return this.index.search(v, n).map((h) => Number(h.id));
  }
}

/**
 * `rows` are unit vectors (`n × dim`). Initial centroids are evenly spaced rows of the
 * sample (already random); an emptied cluster takes the row its centroid explains worst.
 */
export function sphericalKMeans(rows: Float32Array, dim: number, k: number, iterations = 8): KMeansResult {
  const n = rows.length / dim;
  if (!Number.isInteger(n) || n < 1) throw new Error('k-means needs at least one row');
  k = Math.max(1, Math.min(k, n));
  const centroids = new Float32Array(k * dim);
  for (let c = 0; c < k; c++) {
    const r = Math.floor((c * n) / k);
    centroids.set(rows.subarray(r * dim, (r + 1) * dim), c * dim);
  }
  const assign = new Int32Array(n);
  for (let it = 0; it < iterations; it++) {
    const assigner = new CentroidAssigner({ dim, centroids });
    let worst = -1,
      worstScore = Infinity;
    for (let r = 0; r < n; r++) {
      const row = rows.subarray(r * dim, (r + 1) * dim);
      const c = assigner.nearest(row)[0]!;
      assign[r] = c;
      let s = 0;
      for (let j = 0; j < dim; j++) s += row[j]! * centroids[c * dim + j]!;
      if (s < worstScore) {
        worstScore = s;
        worst = r;
      }
    }
    const sums = new Float64Array(k * dim);
    const counts = new Uint32Array(k);
    for (let r = 0; r < n; r++) {
      const c = assign[r]!;
      counts[c]!++;
      for (let j = 0; j < dim; j++) sums[c * dim + j]! += rows[r * dim + j]!;
    }
    for (let c = 0; c < k; c++) {
      if (counts[c] === 0) {
        for (let j = 0; j < dim; j++) sums[c * dim + j] = rows[worst * dim + j]!;
      }
      let norm = 0;
      for (let j = 0; j < dim; j++) norm += sums[c * dim + j]! ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let j = 0; j < dim; j++) centroids[c * dim + j] = sums[c * dim + j]! / norm;
    }
  }
  return { dim, centroids };
}
