// Hamming distances between one binary query code and every stored code: the
// first, coarse pass of the compact index. At 1M × 384 bits the codes are 48 MB,
// a third of the bytes the exact flat index scans at 100k, so the pass is memory
// bound when it runs as WebAssembly SIMD (v128.xor + i8x16.popcnt). The module is
// assembled in code (src/vector/wasm-asm.ts), so there is no build step and no file to fetch.

import {
  BLOCK,
  END,
  I32,
  I32_ADD,
  I32_GE_U,
  I32_LT_U,
  I32_SHL,
  LOOP,
  PAGE,
  V128,
  br_if,
  compileOnce,
  get,
  i32c,
  kernelModule,
  set,
  tee,
  v128Load,
  v128Zero,
  vec,
} from '../../src/vector/wasm-asm';

/** Where the codes live and how a query code is compared with them. */
export interface HammingKernel {
  /** 32-bit words per code. */
  readonly words: number;
  /** Codes, row-major, `words` per row; valid up to the capacity last reserved. */
  readonly codes: Uint32Array;
  /** Scratch for the query code. */
  readonly query: Uint32Array;
  /** Scratch: one distance per row. */
  readonly dist: Uint32Array;
  reserve(capacity: number): void;
  /** dist[r] = popcount(codes[r] xor query) for r < count. */
  score(count: number): void;
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

export function jsHammingKernel(bits: number): HammingKernel {
  const words = Math.ceil(bits / 32);
  const k = {
    words,
    codes: new Uint32Array(0),
    query: new Uint32Array(words),
    dist: new Uint32Array(0),
    reserve(capacity: number) {
      if (capacity * words <= k.codes.length) return;
      const codes = new Uint32Array(capacity * words);
      codes.set(k.codes);
      k.codes = codes;
      k.dist = new Uint32Array(capacity);
    },
    score(count: number) {
      const { codes, query, dist } = k;
      for (let r = 0, o = 0; r < count; r++, o += words) {
        let d = 0;
        for (let w = 0; w < words; w++) d += popcount32((codes[o + w]! ^ query[w]!) >>> 0);
        dist[r] = d;
      }
    },
  };
  return k;
}

const v128LoadAt0 = v128Load(0);
const V128_XOR = [0xfd, 0x51];
const I8X16_POPCNT = [0xfd, 0x62];
const I8X16_ADD = [0xfd, 0x6e];
const I16X8_EXTADD_U = [0xfd, 0x7d];
const I32X4_EXTADD_U = [0xfd, 0x7f];
const lane = (l: number) => [0xfd, 0x1b, l];
const i32Store = [0x36, 2, 0];

// ham(q, codes, count, rowBytes, out): out[r] = popcount(codes[r] ^ q); rowBytes a multiple of 16.
// Per-byte counts accumulate in i8x16 lanes (each ≤ 8 per 16-byte chunk), so rows up
// to 31 chunks (3968 bits) cannot overflow a lane before the widening sum.
const [Q, CODES, COUNT, ROW, OUT, R, J, A] = [0, 1, 2, 3, 4, 5, 6, 7];
const body = [
  ...vec([
    [2, I32],
    [1, V128],
  ]), // locals r, j; acc
  ...i32c(0),
  ...set(R),
  ...BLOCK,
  ...get(R),
  ...get(COUNT),
  I32_GE_U,
  ...br_if(0),
  ...LOOP,
  ...v128Zero,
  ...set(A),
  ...i32c(0),
  ...set(J),
  ...LOOP,
  ...get(A),
  ...get(CODES),
  ...get(J),
  I32_ADD,
  ...v128LoadAt0,
  ...get(Q),
  ...get(J),
  I32_ADD,
  ...v128LoadAt0,
  ...V128_XOR,
  ...I8X16_POPCNT,
  ...I8X16_ADD,
  ...set(A),
  ...get(J),
  ...i32c(16),
  I32_ADD,
  ...tee(J),
  ...get(ROW),
  I32_LT_U,
  ...br_if(0),
  END,
  ...get(OUT),
  ...get(R),
  ...i32c(2),
  I32_SHL,
  I32_ADD,
  ...get(A),
  ...I16X8_EXTADD_U,
  ...I32X4_EXTADD_U,
  ...tee(A),
  ...lane(0),
  ...get(A),
  ...lane(1),
  I32_ADD,
  ...get(A),
  ...lane(2),
  I32_ADD,
  ...get(A),
  ...lane(3),
  I32_ADD,
  ...i32Store,
  ...get(CODES),
  ...get(ROW),
  I32_ADD,
  ...set(CODES),
  ...get(R),
  ...i32c(1),
  I32_ADD,
  ...tee(R),
  ...get(COUNT),
  I32_LT_U,
  ...br_if(0),
  END,
  END,
  END,
];

const compile = compileOnce(kernelModule('ham', body));

export function hammingSimdSupported(): boolean {
  return compile() !== null;
}

/** The SIMD kernel when available and `bits` is a multiple of 128 (up to 3968), else the JS one. */
export function hammingKernel(bits: number): HammingKernel {
  const mod = compile();
  if (!mod || bits % 128 !== 0 || bits > 3968) return jsHammingKernel(bits);
  const exports = new WebAssembly.Instance(mod).exports;
  const memory = exports.memory as WebAssembly.Memory;
  const ham = exports.ham as (q: number, codes: number, count: number, rowBytes: number, out: number) => void;
  const words = bits / 32;
  const rowBytes = bits / 8;
  const codesAt = Math.ceil(rowBytes / 16) * 16;
  let capacity = 0;
  const k = {
    words,
    query: new Uint32Array(memory.buffer, 0, words),
    codes: new Uint32Array(0),
    dist: new Uint32Array(0),
    reserve(rows: number) {
      if (rows <= capacity) return;
      const need = codesAt + rows * rowBytes + rows * 4;
      if (need > memory.buffer.byteLength) memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE));
      // Distances sit after the codes, so growing moves them: keep the codes, drop the scratch.
      capacity = rows;
      k.query = new Uint32Array(memory.buffer, 0, words);
      k.codes = new Uint32Array(memory.buffer, codesAt, rows * words);
      k.dist = new Uint32Array(memory.buffer, codesAt + rows * rowBytes, rows);
    },
    score(count: number) {
      ham(0, codesAt, count, rowBytes, codesAt + capacity * rowBytes);
    },
  };
  return k;
}
