// A WebAssembly SIMD dot-product kernel for the flat index. The scan is memory
// bound; JavaScript's scalar loop reaches about half of that bound, f32x4 with
// two accumulators gets close to it (bench/index.bench.ts). The module is 150
// bytes, assembled here so there is no build step and no file to fetch.
import { jsKernel, type DotKernel } from './dot-kernel';
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

const F32_ADD = 0x92;
const F32X4_ADD = [0xfd, 0xe4, 0x01],
  F32X4_MUL = [0xfd, 0xe6, 0x01];
const lane = (l: number) => [0xfd, 0x1f, l];
const f32Store = [0x38, 2, 0];

// score(q, data, count, dim, out): out[r] = dot(data[r], q); dim a multiple of 8.
const [Q, DATA, COUNT, DIM, OUT, R, J, A, B, ROW] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const body = [
  ...vec([
    [2, I32],
    [2, V128],
    [1, I32],
  ]), // locals r, j; a, b; rowBytes
  ...get(DIM),
  ...i32c(2),
  I32_SHL,
  ...set(ROW),
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
  ...v128Zero,
  ...set(B),
  ...i32c(0),
  ...set(J),
  ...LOOP,
  ...get(A),
  ...get(DATA),
  ...get(J),
  I32_ADD,
  ...v128Load(0),
  ...get(Q),
  ...get(J),
  I32_ADD,
  ...v128Load(0),
  ...F32X4_MUL,
  ...F32X4_ADD,
  ...set(A),
  ...get(B),
  ...get(DATA),
  ...get(J),
  I32_ADD,
  ...v128Load(16),
  ...get(Q),
  ...get(J),
  I32_ADD,
  ...v128Load(16),
  ...F32X4_MUL,
  ...F32X4_ADD,
  ...set(B),
  ...get(J),
  ...i32c(32),
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
  ...get(B),
  ...F32X4_ADD,
  ...tee(A),
  ...lane(0),
  ...get(A),
  ...lane(1),
  F32_ADD,
  ...get(A),
  ...lane(2),
  F32_ADD,
  ...get(A),
  ...lane(3),
  F32_ADD,
  ...f32Store,
  ...get(DATA),
  ...get(ROW),
  I32_ADD,
  ...set(DATA),
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

const compile = compileOnce(kernelModule('score', body));

/** False where WebAssembly or its SIMD proposal is unavailable (the JS kernel is used then). */
export function simdSupported(): boolean {
  return compile() !== null;
}

/** The SIMD kernel for `dim`, or the JS one when SIMD is missing or dim is not a multiple of 8. */
export function simdKernel(dim: number): DotKernel {
  const mod = compile();
  if (!mod || dim % 8 !== 0) return jsKernel(dim);
  const { exports } = new WebAssembly.Instance(mod);
  const memory = exports.memory as WebAssembly.Memory;
  const score = exports.score as (q: number, data: number, count: number, dim: number, out: number) => void;
  // Layout: query at 0, rows from a 16-byte aligned offset, scores after the rows.
  const dataAt = Math.ceil((dim * 4) / 16) * 16;
  let capacity = 0;
  const k = {
    query: new Float32Array(memory.buffer, 0, dim),
    data: new Float32Array(0),
    scores: new Float32Array(0),
    reserve(rows: number) {
      if (rows <= capacity) return;
      const need = dataAt + rows * dim * 4 + rows * 4;
      if (need > memory.buffer.byteLength) memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE));
      capacity = rows;
      // Growing detaches the old buffer: every view is made again (rows stay in place).
      k.query = new Float32Array(memory.buffer, 0, dim);
      k.data = new Float32Array(memory.buffer, dataAt, rows * dim);
      k.scores = new Float32Array(memory.buffer, dataAt + rows * dim * 4, rows);
    },
    score(count: number) {
      score(0, dataAt, count, dim, dataAt + capacity * dim * 4);
    },
  };
  return k;
}
