// The compact index's first pass: for every row's 1-bit RaBitQ code b (rabitq.ts), ⟨b, u⟩ where u
// is the rotated question quantised to 4 bits a dimension, as four bit planes U_k:
//   ⟨b, u⟩ = Σ_k 2^k popcount(b ∧ U_k)
// (bit-sliced popcounts, RaBitQ's fast scan). Four popcounts a code byte instead of Hamming's
// one, still memory bound as WebAssembly SIMD (v128.and + i8x16.popcnt) at 48 bytes a row. The
// module is assembled in code (wasm-asm.ts): no build step and no file to fetch.
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
} from './wasm-asm';

/** Where the codes live and how a quantised question is scored against them. */
export interface BitSlicedKernel {
  /** 32-bit words of one code (one bit plane). */
  readonly words: number;
  /** Codes, row-major, `words` per row; valid up to the capacity last reserved. */
  readonly codes: Uint32Array;
  /**
   * The question's four planes, interleaved by 16-byte chunk: chunk c holds U_0, U_1, U_2, U_3's
   * bytes 16c .. 16c + 15, one after the other (64 bytes a chunk; `setQuery` lays them out).
   */
  readonly query: Uint32Array;
  /** Scratch: ⟨b, u⟩ per row. */
  readonly dots: Uint32Array;
  reserve(capacity: number): void;
  /** dots[r] = Σ_k 2^k popcount(codes[r] ∧ U_k) for r < count. */
  score(count: number): void;
}

/** Lays out 4-bit levels `u` (one a dimension, 0..15) as the kernel's interleaved planes. */
export function setQuery(kernel: BitSlicedKernel, u: ArrayLike<number>, dim: number): void {
  const q = new Uint8Array(kernel.query.buffer, kernel.query.byteOffset, kernel.query.byteLength);
  q.fill(0);
  for (let j = 0; j < dim; j++) {
    const level = u[j]!;
    const chunk = j >> 7,
      byte = (j >> 3) & 15,
      bit = 1 << (j & 7);
    for (let k = 0; k < 4; k++) if ((level >> k) & 1) q[chunk * 64 + k * 16 + byte]! |= bit;
  }
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

export function jsBitSlicedKernel(bits: number): BitSlicedKernel {
  const words = Math.ceil(bits / 128) * 4;
  const k = {
    words,
    codes: new Uint32Array(0),
    query: new Uint32Array(words * 4),
    dots: new Uint32Array(0),
    reserve(capacity: number) {
      if (capacity * words <= k.codes.length) return;
      const codes = new Uint32Array(capacity * words);
      codes.set(k.codes);
      k.codes = codes;
      k.dots = new Uint32Array(capacity);
    },
    score(count: number) {
      const { codes, query, dots } = k;
      for (let r = 0, o = 0; r < count; r++, o += words) {
        let d = 0;
        for (let w = 0; w < words; w++) {
          const c = codes[o + w]!;
          // Word w lies in chunk w >> 2 at word (w & 3) of each 16-byte plane slice.
          const at = (w >> 2) * 16 + (w & 3);
          for (let p = 0; p < 4; p++) d += popcount32((c & query[at + p * 4]!) >>> 0) << p;
        }
        dots[r] = d;
      }
    },
  };
  return k;
}

const V128_AND = [0xfd, 0x4e];
const I8X16_POPCNT = [0xfd, 0x62];
const I8X16_SHL = [0xfd, 0x6b];
const I8X16_ADD = [0xfd, 0x6e];
const I16X8_ADD = [0xfd, 0x8e, 0x01];
const I16X8_EXTADD_U = [0xfd, 0x7d];
const I32X4_EXTADD_U = [0xfd, 0x7f];
const lane = (l: number) => [0xfd, 0x1b, l];
const i32Store = [0x36, 2, 0];

// bits(q, codes, count, rowBytes, out): out[r] = Σ_k popcount(codes[r] & U_k) << k.
// A chunk's four weighted counts fit a byte lane (8 × 15 = 120); they widen into i16 lanes
// (≤ 240 a chunk), which hold up to 31 chunks (3968 bits) before the final i32 sum.
const [Q, CODES, COUNT, ROW, OUT, R, J, QP, A, C, V] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/** popcount(c & U_k) << k onto the byte lanes in V. */
const plane = (k: number) => [
  ...get(C),
  ...get(QP),
  ...v128Load(16 * k),
  ...V128_AND,
  ...I8X16_POPCNT,
  ...(k ? [...i32c(k), ...I8X16_SHL] : []),
  ...(k ? [...get(V), ...I8X16_ADD] : []),
  ...set(V),
];
const body = [
  ...vec([
    [3, I32],
    [3, V128],
  ]), // locals r, j, qp; acc, c, v
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
  ...get(Q),
  ...set(QP),
  ...LOOP,
  ...get(CODES),
  ...get(J),
  I32_ADD,
  ...v128Load(0),
  ...set(C),
  ...plane(0),
  ...plane(1),
  ...plane(2),
  ...plane(3),
  ...get(A),
  ...get(V),
  ...I16X8_EXTADD_U,
  ...I16X8_ADD,
  ...set(A),
  ...get(QP),
  ...i32c(64),
  I32_ADD,
  ...set(QP),
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

const compile = compileOnce(kernelModule('bits', body));

export function bitSlicedSimdSupported(): boolean {
  return compile() !== null;
}

/** The SIMD kernel when available and `bits` is a multiple of 128 (up to 3968), else the JS one. */
export function bitSlicedKernel(bits: number): BitSlicedKernel {
  const mod = compile();
  if (!mod || bits % 128 !== 0 || bits > 3968) return jsBitSlicedKernel(bits);
  const exports = new WebAssembly.Instance(mod).exports;
  const memory = exports.memory as WebAssembly.Memory;
  const run = exports.bits as (q: number, codes: number, count: number, rowBytes: number, out: number) => void;
  const words = bits / 32;
  const rowBytes = bits / 8;
  const queryBytes = rowBytes * 4;
  const codesAt = queryBytes;
  let capacity = 0;
  const k = {
    words,
    query: new Uint32Array(memory.buffer, 0, queryBytes / 4),
    codes: new Uint32Array(0),
    dots: new Uint32Array(0),
    reserve(rows: number) {
      if (rows <= capacity) return;
      const need = codesAt + rows * rowBytes + rows * 4;
      if (need > memory.buffer.byteLength) memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE));
      // The dots sit after the codes, so growing moves them: keep the codes, drop the scratch.
      capacity = rows;
      k.query = new Uint32Array(memory.buffer, 0, queryBytes / 4);
      k.codes = new Uint32Array(memory.buffer, codesAt, rows * words);
      k.dots = new Uint32Array(memory.buffer, codesAt + rows * rowBytes, rows);
    },
    score(count: number) {
      run(0, codesAt, count, rowBytes, codesAt + capacity * rowBytes);
    },
  };
  return k;
}
