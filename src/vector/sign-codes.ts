// Sign codes, as sharded corpora of format 4 and 5 keep passages and sub-centroids: bit j set when
// the vector's component j is above the corpus's mean, ranked by the asymmetric score q ·
// (centre + spread ⊙ signs). Format 6 and the compact index use RaBitQ codes instead (rabitq.ts),
// which order real embeddings' crowded candidates far better (docs/benchmarks-real.md); these
// stay so older corpora still read, and as the baseline the benches measure against.

/**
 * The codes' centre (mean) and spread (mean absolute deviation) over `n` rows: what the sign
 * bits are taken against and what the asymmetric score weighs them by. The centre is also
 * what RaBitQ codes are taken against.
 */
export function learnCentreSpread(
  n: number,
  row: (r: number) => ArrayLike<number>,
  dim: number,
  centre: Float32Array,
  spread: Float32Array,
): void {
  const mean = new Float64Array(dim);
  for (let r = 0; r < n; r++) {
    const v = row(r);
    for (let j = 0; j < dim; j++) mean[j]! += v[j]!;
  }
  for (let j = 0; j < dim; j++) centre[j] = mean[j]! / n;
  const dev = new Float64Array(dim);
  for (let r = 0; r < n; r++) {
    const v = row(r);
    for (let j = 0; j < dim; j++) dev[j]! += Math.abs(v[j]! - centre[j]!);
  }
  for (let j = 0; j < dim; j++) spread[j] = dev[j]! / n || 1e-6;
}

/** Sets `codes[o .. o + words)` to the 1-bit code of `unit`: bit j is set when unit[j] > centre[j]. */
export function encodeSignBits(
  unit: ArrayLike<number>,
  centre: ArrayLike<number>,
  dim: number,
  codes: Uint32Array,
  o: number,
  words: number,
): void {
  codes.fill(0, o, o + words);
  for (let j = 0; j < dim; j++) if (unit[j]! > centre[j]!) codes[o + (j >>> 5)]! |= 1 << (j & 31);
}

/**
 * Byte lookup tables for q · (spread ⊙ sign bits) (the centre's share is the same for every row):
 * entry `b * 256 + v` is code byte b's contribution when it holds v.
 */
export function asymmetricTable(
  q: ArrayLike<number>,
  spread: ArrayLike<number>,
  dim: number,
  bits: number,
): Float32Array {
  const bytes = bits / 8;
  const table = new Float32Array(bytes * 256);
  for (let b = 0; b < bytes; b++) {
    const w = new Float32Array(8);
    for (let i = 0; i < 8; i++) {
      const j = b * 8 + i;
      w[i] = j < dim ? q[j]! * spread[j]! : 0;
    }
    const t = b * 256;
    let all = 0;
    for (let i = 0; i < 8; i++) all -= w[i]!;
    table[t] = all;
    // Each entry differs from the one without its lowest set bit by twice that bit's weight.
    for (let v = 1; v < 256; v++) {
      const low = v & -v;
      table[t + v] = table[t + (v ^ low)]! + 2 * w[31 - Math.clz32(low)]!;
    }
  }
  return table;
}
