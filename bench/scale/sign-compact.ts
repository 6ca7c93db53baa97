// The compact index as it ranked before RaBitQ codes, kept as the benches' baseline: sign bits of
// each row minus the mean, Hamming distances to the question's sign bits over every row (WASM SIMD
// popcount), the best `candidates` rescored by the float question against spread-weighted signs,
// the best `rescore` of those scored exactly on their int8 rows. No journal, no removal: only
// what a bench needs to time and grade it beside the current index in the same run.
import { int8Codec, type RowStore } from '../../src/vector/row-store';
import { asymmetricTable, encodeSignBits, learnCentreSpread } from '../../src/vector/sign-codes';
import { normalise, TopK, type VectorHit } from '../../src/vector/vector-index';
import { hammingKernel, type HammingKernel } from './hamming-kernel';

export class SignCompactIndex {
  private readonly bits: number;
  private readonly kernel: HammingKernel;
  private readonly centre: Float32Array;
  private readonly spread: Float32Array;
  private readonly rowBuf: Uint8Array;
  private ids: string[] = [];

  constructor(
    readonly dim: number,
    private readonly store: RowStore,
    private readonly candidates = 2000,
    private readonly rescore = 400,
  ) {
    this.bits = Math.ceil(dim / 128) * 128;
    this.kernel = hammingKernel(this.bits);
    this.centre = new Float32Array(dim);
    this.spread = new Float32Array(dim);
    this.rowBuf = new Uint8Array(store.rowBytes);
  }

  /** All rows at once (unit vectors); the centre and spread from the first 1,024, as the index learnt them. */
  add(ids: readonly string[], unit: readonly Float32Array[]): void {
    const train = Math.min(1024, unit.length);
    learnCentreSpread(train, (r) => unit[r]!, this.dim, this.centre, this.spread);
    this.kernel.reserve(unit.length);
    const { words } = this.kernel;
    const row = new Uint8Array(this.store.rowBytes);
    unit.forEach((v, r) => {
      encodeSignBits(v, this.centre, this.dim, this.kernel.codes, r * words, words);
      int8Codec.encode(v, row);
      this.store.write(r, row);
    });
    this.ids = [...ids];
  }

  search(query: Float32Array, k: number): VectorHit[] {
    const n = this.ids.length;
    const q = normalise(query, this.dim);
    const near = this.hammingNearest(q, Math.min(n, this.candidates));
    const pool = this.asymmetricBest(q, near, Math.max(k, this.rescore));
    const top = new TopK(Math.min(k, n));
    for (const r of pool) {
      this.store.read(r, this.rowBuf);
      const s = int8Codec.dot(q, this.rowBuf);
      if (s > top.worst()) top.push(this.ids[r]!, s);
    }
    return top.hits();
  }

  private hammingNearest(q: Float32Array, m: number): Uint32Array {
    const { query, dist } = this.kernel;
    const n = this.ids.length;
    query.fill(0);
    for (let j = 0; j < this.dim; j++) if (q[j]! > this.centre[j]!) query[j >>> 5]! |= 1 << (j & 31);
    this.kernel.score(n);
    const hist = new Uint32Array(this.bits + 1);
    for (let r = 0; r < n; r++) hist[dist[r]!]!++;
    let cut = 0;
    for (let seen = 0; cut <= this.bits; cut++) {
      seen += hist[cut]!;
      if (seen >= m) break;
    }
    const out = new Uint32Array(m);
    let below = 0;
    for (let d = 0; d < cut; d++) below += hist[d]!;
    let atCut = m - below;
    let o = 0;
    for (let r = 0; r < n && o < m; r++) {
      const d = dist[r]!;
      if (d < cut || (d === cut && atCut-- > 0)) out[o++] = r;
    }
    return out;
  }

  private asymmetricBest(q: Float32Array, rows: Uint32Array, m: number): Uint32Array {
    const bytes = this.bits / 8;
    const table = asymmetricTable(q, this.spread, this.dim, this.bits);
    const codes = new Uint8Array(this.kernel.codes.buffer, this.kernel.codes.byteOffset, this.kernel.codes.byteLength);
    const scores = new Float32Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const o = rows[i]! * bytes;
      let s = 0;
      for (let b = 0, t = 0; b < bytes; b++, t += 256) s += table[t + codes[o + b]!]!;
      scores[i] = s;
    }
    const order = Array.from({ length: rows.length }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]!);
    return Uint32Array.from(order.slice(0, m), (i) => rows[i]!);
  }
}
