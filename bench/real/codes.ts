// Which code orders candidates best for the bytes it costs (`npm run bench -- scale --codes`):
// over every row of a vector set (no routing), each code's estimate ranks the rows for each
// question, the best R are scored exactly on their int8 rows (as both indexes do), and recall@10
// against exact search is counted strictly (near-ties beside it). Codes:
//   sign Hamming       sign(v − c) against sign(q − c), popcount: the compact index's old first pass
//   sign asymmetric    q · (c + spread ⊙ sign(v − c)): the old second pass and the sharded corpus's
//                      format 4–5 ranking
//   RaBitQ 1 bit       rotated signs with a per-vector factor; the question in floats, or in 4 bits
//                      (what the popcount kernel computes)
//   RaBitQ 2 / 4 bits  extended RaBitQ, more bits a dimension
//   cascades           4-bit question on 1-bit codes → M → a finer code → R
import { learnCentreSpread, asymmetricTable, encodeSignBits } from '../../src/vector/sign-codes';
import { codeBytesOf, codeDot, codeSpace, encodeCode, planeBytes, prepareQuery } from '../../src/vector/rabitq';
import { int8Codec } from '../../src/vector/row-store';

export interface CodeSet {
  name: string;
  dim: number;
  n: number;
  row(i: number): Float32Array;
  queries: Float32Array[];
}

const K = 10;
const NEAR_TIE = 0.01;
export const RESCORE_DEPTHS = [50, 100, 200, 400, 800, 2000];

/** Indices of the `m` largest of `scores`, best first, by a min-heap (`among`: the rows `scores` are of). */
export function topIndices(scores: Float64Array | Float32Array, m: number, among?: ArrayLike<number>): Uint32Array {
  const count = among ? among.length : scores.length;
  m = Math.min(m, count);
  const heapS = new Float64Array(m);
  const heapI = new Uint32Array(m);
  let size = 0;
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1,
        r = l + 1;
      let s = i;
      if (l < size && heapS[l]! < heapS[s]!) s = l;
      if (r < size && heapS[r]! < heapS[s]!) s = r;
      if (s === i) return;
      [heapS[i], heapS[s]] = [heapS[s]!, heapS[i]!];
      [heapI[i], heapI[s]] = [heapI[s]!, heapI[i]!];
      i = s;
    }
  };
  for (let k = 0; k < count; k++) {
    const idx = among ? among[k]! : k;
    const s = scores[among ? k : idx]!;
    if (size < m) {
      let i = size++;
      heapS[i] = s;
      heapI[i] = idx;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (heapS[p]! <= heapS[i]!) break;
        [heapS[i], heapS[p]] = [heapS[p]!, heapS[i]!];
        [heapI[i], heapI[p]] = [heapI[p]!, heapI[i]!];
        i = p;
      }
    } else if (s > heapS[0]!) {
      heapS[0] = s;
      heapI[0] = idx;
      down(0);
    }
  }
  const order = Array.from({ length: size }, (_, i) => i).sort((a, b) => heapS[b]! - heapS[a]!);
  return Uint32Array.from(order, (i) => heapI[i]!);
}

interface Variant {
  name: string;
  /** Code bytes a row holds (factors included). */
  bytes: number;
  /** The candidates for the deepest R, best first; recall at each R is read from its prefix. */
  rank(qi: number, maxR: number): Uint32Array;
}

function popcount8(x: number): number {
  x -= (x >> 1) & 0x55;
  x = (x & 0x33) + ((x >> 2) & 0x33);
  return (x + (x >> 4)) & 0x0f;
}

export interface CodeRow {
  code: string;
  bytes: number;
  recall: number[];
  tolerant: number[];
}

export function compareCodes(set: CodeSet, log: (l: string) => void = console.log): CodeRow[] {
  const { dim, n } = set;
  const Q = set.queries.length;
  // Exact truth and int8 rows.
  const rb = int8Codec.rowBytes(dim);
  const int8 = new Uint8Array(n * rb);
  for (let i = 0; i < n; i++) int8Codec.encode(set.row(i), int8.subarray(i * rb, (i + 1) * rb));
  const truth: Set<number>[] = [];
  const tenth: number[] = [];
  const exactScores = new Float64Array(n);
  for (const q of set.queries) {
    for (let i = 0; i < n; i++) {
      const v = set.row(i);
      let s = 0;
      for (let j = 0; j < dim; j++) s += v[j]! * q[j]!;
      exactScores[i] = s;
    }
    const top = [...topIndices(exactScores, K)];
    truth.push(new Set(top));
    tenth.push(exactScores[top[top.length - 1]!]!);
  }
  log(`[codes] ${set.name}: exact top ${K} of ${Q} questions over ${n} rows`);

  const sample = Math.min(n, 50000);
  const centre = new Float32Array(dim),
    spread = new Float32Array(dim);
  learnCentreSpread(sample, (r) => set.row(Math.floor((r * n) / sample)), dim, centre, spread);
  const pb = planeBytes(dim);
  const words = pb / 4;

  // Sign codes against the centre (format 4–5, the old compact index).
  const sign = new Uint32Array(n * words);
  for (let i = 0; i < n; i++) encodeSignBits(set.row(i), centre, dim, sign, i * words, words);
  const signBytes = new Uint8Array(sign.buffer);
  // RaBitQ codes: 4 bits, whose first plane is the 1-bit code; 2 bits separately.
  const space = codeSpace(dim, centre, 0x5eed);
  const c4 = new Uint8Array(n * 4 * pb),
    f4 = new Float32Array(n),
    f1 = new Float32Array(n);
  const c2 = new Uint8Array(n * 2 * pb),
    f2 = new Float32Array(n);
  const popc = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const e4 = encodeCode(space, set.row(i), 4, c4, i * 4 * pb);
    f4[i] = e4.factor;
    f1[i] = e4.signFactor;
    f2[i] = encodeCode(space, set.row(i), 2, c2, i * 2 * pb).factor;
    let pc = 0;
    for (let b = 0; b < pb; b++) pc += popcount8(c4[i * 4 * pb + b]!);
    popc[i] = pc;
  }
  log(`[codes] ${set.name}: codes made`);

  const scores = new Float64Array(n);
  const byScore = (maxR: number, fill: (i: number) => number, among?: ArrayLike<number>) => {
    const count = among ? among.length : n;
    for (let k = 0; k < count; k++) scores[k] = fill(among ? among[k]! : k);
    return topIndices(scores.subarray(0, count), maxR, among);
  };
  const prepared = set.queries.map((q) => prepareQuery(space, q));
  const rabitq1Float = (qi: number) => {
    const pq = prepared[qi]!;
    return (i: number) => pq.centreDot + f1[i]! * (codeDot(pq, c4, i * 4 * pb, 1, pb) - 0.5 * pq.sum);
  };
  // The question in 4 bits a dimension (lo + Δ u), as the popcount kernel sees it.
  const rabitq1Quant = (qi: number) => {
    const pq = prepared[qi]!;
    const r = pq.rotated;
    let lo = Infinity,
      hi = -Infinity;
    for (let j = 0; j < dim; j++) {
      lo = Math.min(lo, r[j]!);
      hi = Math.max(hi, r[j]!);
    }
    const delta = (hi - lo) / 15 || 1;
    const quant = Float32Array.from(r, (x, j) => (j < dim ? lo + delta * Math.round((x - lo) / delta) : 0));
    const qq = { ...pq, tables: tablesOf(quant, pb) };
    let sum = 0;
    for (let j = 0; j < dim; j++) sum += quant[j]!;
    return (i: number) => pq.centreDot + f1[i]! * (codeDot(qq, c4, i * 4 * pb, 1, pb) - 0.5 * sum);
  };
  const multi = (codes: Uint8Array, bits: number, f: Float32Array) => (qi: number) => {
    const pq = prepared[qi]!;
    const c = ((1 << bits) - 1) / 2;
    return (i: number) => pq.centreDot + f[i]! * (codeDot(pq, codes, i * bits * pb, bits, pb) - c * pq.sum);
  };
  const rabitq2 = multi(c2, 2, f2);
  const rabitq4 = multi(c4, 4, f4);

  const variants: Variant[] = [
    {
      name: 'sign Hamming (sign of q − c against the row signs)',
      bytes: pb,
      rank: (qi, maxR) => {
        const q = set.queries[qi]!;
        const qs = new Uint32Array(words);
        encodeSignBits(q, centre, dim, qs, 0, words);
        const qb = new Uint8Array(qs.buffer);
        return byScore(maxR, (i) => {
          let d = 0;
          for (let b = 0, o = i * pb; b < pb; b++) d += popcount8(signBytes[o + b]! ^ qb[b]!);
          return -d;
        });
      },
    },
    {
      name: 'sign asymmetric (float q against spread-weighted signs)',
      bytes: pb,
      rank: (qi, maxR) => {
        const table = asymmetricTable(set.queries[qi]!, spread, dim, pb * 8);
        return byScore(maxR, (i) => {
          let s = 0;
          for (let b = 0, o = i * pb, t = 0; b < pb; b++, t += 256) s += table[t + signBytes[o + b]!]!;
          return s;
        });
      },
    },
    {
      name: 'sign Hamming → 2000 → sign asymmetric (the old compact index)',
      bytes: pb,
      rank: (qi, maxR) => {
        const ham = variants[0]!.rank(qi, 2000);
        const table = asymmetricTable(set.queries[qi]!, spread, dim, pb * 8);
        return byScore(
          maxR,
          (i) => {
            let s = 0;
            for (let b = 0, o = i * pb, t = 0; b < pb; b++, t += 256) s += table[t + signBytes[o + b]!]!;
            return s;
          },
          ham,
        );
      },
    },
    {
      name: 'RaBitQ 1 bit, rotated, no factor (ablation)',
      bytes: pb,
      rank: (qi, maxR) => {
        const pq = prepared[qi]!;
        return byScore(maxR, (i) => codeDot(pq, c4, i * 4 * pb, 1, pb));
      },
    },
    { name: 'RaBitQ 1 bit, float question', bytes: pb + 4, rank: (qi, maxR) => byScore(maxR, rabitq1Float(qi)) },
    { name: 'RaBitQ 1 bit, 4-bit question', bytes: pb + 4, rank: (qi, maxR) => byScore(maxR, rabitq1Quant(qi)) },
    {
      name: 'RaBitQ 1 bit 4-bit question → 2000 → float question',
      bytes: pb + 4,
      rank: (qi, maxR) => byScore(maxR, rabitq1Float(qi), byScore(2000, rabitq1Quant(qi))),
    },
    { name: 'RaBitQ 2 bits', bytes: 2 * pb + 4, rank: (qi, maxR) => byScore(maxR, rabitq2(qi)) },
    { name: 'RaBitQ 4 bits', bytes: 4 * pb + 4, rank: (qi, maxR) => byScore(maxR, rabitq4(qi)) },
    {
      name: 'RaBitQ 1 bit (4-bit question) → 1000 → RaBitQ 4 bits',
      bytes: 4 * pb + 8,
      rank: (qi, maxR) => byScore(maxR, rabitq4(qi), byScore(1000, rabitq1Quant(qi))),
    },
  ];
  void codeBytesOf;
  const maxR = RESCORE_DEPTHS[RESCORE_DEPTHS.length - 1]!;
  const rows: CodeRow[] = [];
  for (const v of variants) {
    const hits = RESCORE_DEPTHS.map(() => 0);
    const near = RESCORE_DEPTHS.map(() => 0);
    for (let qi = 0; qi < Q; qi++) {
      const q = set.queries[qi]!;
      const order = v.rank(qi, maxR);
      RESCORE_DEPTHS.forEach((R, d) => {
        const cand = order.subarray(0, Math.min(R, order.length));
        const exact = [...cand]
          .map((i) => [i, int8Codec.dot(q, int8.subarray(i * rb, (i + 1) * rb))] as const)
          .sort((a, b) => b[1] - a[1])
          .slice(0, K);
        for (const [i] of exact) {
          if (truth[qi]!.has(i)) hits[d]!++;
          let s = 0;
          const row = set.row(i);
          for (let j = 0; j < dim; j++) s += row[j]! * q[j]!;
          if (truth[qi]!.has(i) || s >= tenth[qi]! - NEAR_TIE) near[d]!++;
        }
      });
    }
    const row = {
      code: v.name,
      bytes: v.bytes,
      recall: hits.map((h) => h / (K * Q)),
      tolerant: near.map((h) => h / (K * Q)),
    };
    rows.push(row);
    log(`[codes] ${set.name}: ${v.name}: ${row.recall.map((r) => r.toFixed(3)).join(' ')}`);
  }
  return rows;
}

function tablesOf(rotated: Float32Array, pb: number): Float32Array {
  const tables = new Float32Array(pb * 256);
  for (let b = 0; b < pb; b++) {
    const t = b * 256;
    for (let v = 1; v < 256; v++) {
      const low = v & -v;
      tables[t + v] = tables[t + (v ^ low)]! + rotated[b * 8 + 31 - Math.clz32(low)]!;
    }
  }
  return tables;
}
