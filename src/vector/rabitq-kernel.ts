// The compact index's first pass: for every row's 1-bit RaBitQ code b (rabitq.ts), ⟨b, u⟩ where u
// is the rotated question quantised to 4 bits a dimension (RaBitQ's fast scan, as faiss's 4-bit
// "fast scan" lays out product-quantisation codes). Codes are stored in blocks of 32 rows, by
// nibble: for each 4 dimensions p, 16 bytes hold the 32 rows' 4 bits there (row i's in the low
// half of byte i, row i + 16's in the high half). The question becomes one 16-entry table per
// nibble, LUT_p[x] = Σ_{t ∈ x} u_{4p + t}, so one i8x16.swizzle scores 16 rows' nibble at once:
// about 30 SIMD operations a row at 384-d, as few as sign-against-sign Hamming distances took,
// where bit-sliced popcounts over the question's four bit planes took 80. The module is
// assembled in code (wasm-asm.ts): no build step and no file to fetch.
import {
  BLOCK,
  END,
  I32,
  I32_ADD,
  I32_GE_U,
  I32_LT_U,
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

/** Rows a block holds. */
export const BLOCK_ROWS = 32;

/** Where the codes live and how a quantised question is scored against them. */
export interface FastScanKernel {
  /** Nibbles (4 dimensions each) of one code: bits / 4. */
  readonly positions: number;
  reserve(capacity: number): void;
  /** Row r's code from `code` (bits / 8 bytes, dimension j at bit j & 7 of byte j >> 3). */
  setRow(r: number, code: Uint8Array): void;
  /** Row r's code into `out` (bits / 8 bytes). */
  getRow(r: number, out: Uint8Array): void;
  /** Row r's nibble p: its bits for dimensions 4p .. 4p + 3. */
  nibble(r: number, p: number): number;
  moveRow(from: number, to: number): void;
  /** The question's levels (one a dimension, 0..15; `dim` of them) as the kernel's tables. */
  setQuery(u: ArrayLike<number>, dim: number): void;
  /** dots[r] = ⟨code r, u⟩ for r < count (and for the rest of count's last block). */
  score(count: number): void;
  /** Scratch: ⟨b, u⟩ a row, valid up to the capacity last reserved. */
  readonly dots: Uint16Array;
  /** Bytes held in memory. */
  readonly bytes: number;
}

/** Block layout shared by both kernels: row r's nibble p lies at its base + 16 p, in the high half when `r & 16`. */
const baseOf = (r: number, positions: number) => (r >>> 5) * positions * 16 + (r & 15);

/** The kernel's operations over a byte array holding the blocks; `run` fills `dots` for whole blocks. */
function blockKernel(
  bits: number,
  memory: () => Uint8Array,
  grow: (capacity: number) => void,
  lut: () => Uint8Array,
  dots: () => Uint16Array,
  run: (blocks: number) => void,
): FastScanKernel {
  const positions = bits / 4;
  let capacity = 0;
  const k: FastScanKernel = {
    positions,
    reserve(rows) {
      if (rows <= capacity) return;
      capacity = Math.ceil(rows / BLOCK_ROWS) * BLOCK_ROWS;
      grow(capacity);
    },
    setRow(r, code) {
      const m = memory();
      const base = baseOf(r, positions);
      const high = (r & 16) !== 0;
      for (let p = 0; p < positions; p++) {
        const at = base + p * 16;
        const v = (code[p >> 1]! >> ((p & 1) * 4)) & 15;
        m[at] = high ? (m[at]! & 0x0f) | (v << 4) : (m[at]! & 0xf0) | v;
      }
    },
    getRow(r, out) {
      const m = memory();
      const base = baseOf(r, positions);
      const shift = r & 16 ? 4 : 0;
      for (let b = 0; b < positions / 2; b++)
        out[b] = ((m[base + 32 * b]! >> shift) & 15) | (((m[base + 32 * b + 16]! >> shift) & 15) << 4);
    },
    nibble(r, p) {
      return (memory()[baseOf(r, positions) + p * 16]! >> (r & 16 ? 4 : 0)) & 15;
    },
    moveRow(from, to) {
      const m = memory();
      const src = baseOf(from, positions),
        dst = baseOf(to, positions);
      const sh = from & 16 ? 4 : 0;
      const high = (to & 16) !== 0;
      for (let p = 0; p < positions; p++) {
        const v = (m[src + p * 16]! >> sh) & 15;
        const at = dst + p * 16;
        m[at] = high ? (m[at]! & 0x0f) | (v << 4) : (m[at]! & 0xf0) | v;
      }
    },
    setQuery(u, dim) {
      const t = lut();
      for (let p = 0; p < positions; p++)
        for (let x = 0; x < 16; x++) {
          let s = 0;
          for (let b = 0; b < 4; b++) if ((x >> b) & 1 && 4 * p + b < dim) s += u[4 * p + b]!;
          t[p * 16 + x] = s;
        }
    },
    score(count) {
      run(Math.ceil(count / BLOCK_ROWS));
    },
    get dots() {
      return dots();
    },
    get bytes() {
      return capacity * (bits / 8 + 2);
    },
  };
  return k;
}

export function jsFastScanKernel(bits: number): FastScanKernel {
  const positions = bits / 4;
  let codes = new Uint8Array(0);
  let dots = new Uint16Array(0);
  const lut = new Uint8Array(positions * 16);
  return blockKernel(
    bits,
    () => codes,
    (capacity) => {
      const grown = new Uint8Array(capacity * (bits / 8));
      grown.set(codes);
      codes = grown;
      dots = new Uint16Array(capacity);
    },
    () => lut,
    () => dots,
    (blocks) => {
      for (let b = 0; b < blocks; b++) {
        const base = b * positions * 16;
        for (let lane = 0; lane < BLOCK_ROWS; lane++) {
          let s = 0;
          const shift = lane >= 16 ? 4 : 0;
          for (let p = 0; p < positions; p++) s += lut[p * 16 + ((codes[base + p * 16 + (lane & 15)]! >> shift) & 15)]!;
          dots[b * BLOCK_ROWS + lane] = s;
        }
      }
    },
  );
}

const V128_AND = [0xfd, 0x4e];
const I8X16_SWIZZLE = [0xfd, 0x0e];
const I8X16_SHR_U = [0xfd, 0x6d];
const I8X16_ADD = [0xfd, 0x6e];
const I16X8_ADD = [0xfd, 0x8e, 0x01];
const I16X8_EXTEND_LOW_U = [0xfd, 0x89, 0x01];
const I16X8_EXTEND_HIGH_U = [0xfd, 0x8a, 0x01];
const v128Store = (offset: number) => [0xfd, 0x0b, 4, offset];
const NIBBLE_MASK = [0xfd, 0x0c, ...new Array<number>(16).fill(0x0f)];

// scan(lut, codes, blocks, positions, out): per block of 32 rows, out[row] (u16) = Σ_p LUT_p[nibble].
// Four positions' table values (≤ 60 each) sum in byte lanes (≤ 240), then widen into four u16
// accumulators (rows 0–7, 8–15, 16–23, 24–31; ≤ 60 × positions, 7,440 at 496 positions).
const [LUT, CODES, BLOCKS, POS, OUT, B, P, LP, A0, A1, A2, A3, SL, SH, C, T] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
];
/** Position k of four: its table swizzled by the low and high nibbles of its 16 code bytes, onto SL and SH. */
const position = (k: number) => [
  ...get(CODES),
  ...v128Load(16 * k),
  ...set(C),
  ...get(LP),
  ...v128Load(16 * k),
  ...set(T),
  ...get(SL),
  ...get(T),
  ...get(C),
  ...NIBBLE_MASK,
  ...V128_AND,
  ...I8X16_SWIZZLE,
  ...I8X16_ADD,
  ...set(SL),
  ...get(SH),
  ...get(T),
  ...get(C),
  ...i32c(4),
  ...I8X16_SHR_U,
  ...I8X16_SWIZZLE,
  ...I8X16_ADD,
  ...set(SH),
];
const widen = (acc: number, from: number, op: number[]) => [
  ...get(acc),
  ...get(from),
  ...op,
  ...I16X8_ADD,
  ...set(acc),
];
const body = [
  ...vec([
    [3, I32],
    [8, V128],
  ]), // locals b, p, lp; a0..a3, sl, sh, c, t
  ...i32c(0),
  ...set(B),
  ...BLOCK,
  ...get(B),
  ...get(BLOCKS),
  I32_GE_U,
  ...br_if(0),
  ...LOOP, // each block
  ...v128Zero,
  ...set(A0),
  ...v128Zero,
  ...set(A1),
  ...v128Zero,
  ...set(A2),
  ...v128Zero,
  ...set(A3),
  ...i32c(0),
  ...set(P),
  ...get(LUT),
  ...set(LP),
  ...LOOP, // four positions at a time
  ...v128Zero,
  ...set(SL),
  ...v128Zero,
  ...set(SH),
  ...position(0),
  ...position(1),
  ...position(2),
  ...position(3),
  ...widen(A0, SL, I16X8_EXTEND_LOW_U),
  ...widen(A1, SL, I16X8_EXTEND_HIGH_U),
  ...widen(A2, SH, I16X8_EXTEND_LOW_U),
  ...widen(A3, SH, I16X8_EXTEND_HIGH_U),
  ...get(CODES),
  ...i32c(64),
  I32_ADD,
  ...set(CODES),
  ...get(LP),
  ...i32c(64),
  I32_ADD,
  ...set(LP),
  ...get(P),
  ...i32c(4),
  I32_ADD,
  ...tee(P),
  ...get(POS),
  I32_LT_U,
  ...br_if(0),
  END,
  ...get(OUT),
  ...get(A0),
  ...v128Store(0),
  ...get(OUT),
  ...get(A1),
  ...v128Store(16),
  ...get(OUT),
  ...get(A2),
  ...v128Store(32),
  ...get(OUT),
  ...get(A3),
  ...v128Store(48),
  ...get(OUT),
  ...i32c(64),
  I32_ADD,
  ...set(OUT),
  ...get(B),
  ...i32c(1),
  I32_ADD,
  ...tee(B),
  ...get(BLOCKS),
  I32_LT_U,
  ...br_if(0),
  END,
  END,
  END,
];

const compile = compileOnce(kernelModule('scan', body));

export function fastScanSimdSupported(): boolean {
  return compile() !== null;
}

/** The SIMD kernel when available and `bits` is a multiple of 128 (up to 1984, so a row's sum fits 16 bits), else the JS one. */
export function fastScanKernel(bits: number): FastScanKernel {
  const mod = compile();
  if (!mod || bits % 128 !== 0 || bits > 1984) return jsFastScanKernel(bits);
  const exports = new WebAssembly.Instance(mod).exports;
  const memory = exports.memory as WebAssembly.Memory;
  const scan = exports.scan as (lut: number, codes: number, blocks: number, positions: number, out: number) => void;
  const positions = bits / 4;
  // Layout: the tables, then the blocks, then the dots (after the blocks, so growing moves them).
  const lutBytes = positions * 16;
  const codesAt = lutBytes;
  let capacity = 0;
  // The blocks, from codesAt on (a view made again when growing detaches the buffer).
  let view = new Uint8Array(memory.buffer, codesAt);
  const fresh = () => {
    if (view.buffer !== memory.buffer) view = new Uint8Array(memory.buffer, codesAt);
    return view;
  };
  const dotsAt = () => codesAt + capacity * (bits / 8);
  return blockKernel(
    bits,
    () => fresh(),
    (rows) => {
      const need = codesAt + rows * (bits / 8) + rows * 2;
      if (need > memory.buffer.byteLength) memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE));
      // The blocks stay where they are; the dots' scratch moves past them, and what it held is cleared.
      fresh().fill(0, capacity * (bits / 8), rows * (bits / 8));
      capacity = rows;
    },
    () => new Uint8Array(memory.buffer, 0, lutBytes),
    () => new Uint16Array(memory.buffer, dotsAt(), capacity),
    (blocks) => scan(0, codesAt, blocks, positions, dotsAt()),
  );
}
