// A few WebAssembly encoders for the scan kernels (simd-kernel.ts, rabitq-kernel.ts; bench/scale/hamming-kernel.ts).
// Each kernel is one exported function of five i32 arguments over an exported memory,
// assembled in code so there is no build step and no file to fetch.

export const I32 = 0x7f;
export const V128 = 0x7b;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
}
export const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const name = (s: string) => vec([...new TextEncoder().encode(s)].map((b) => [b]));

// Opcodes both kernels use (core and the 0xfd SIMD prefix).
export const get = (i: number) => [0x20, i];
export const set = (i: number) => [0x21, i];
export const tee = (i: number) => [0x22, i];
/** i32.const: the value in signed LEB128. */
export function i32c(n: number): number[] {
  const out = [0x41];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    const done = (n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}
export const I32_ADD = 0x6a,
  I32_SHL = 0x74,
  I32_LT_U = 0x49,
  I32_GE_U = 0x4f;
export const BLOCK = [0x02, 0x40],
  LOOP = [0x03, 0x40],
  END = 0x0b;
export const br_if = (d: number) => [0x0d, d];
export const v128Load = (offset: number) => [0xfd, 0x00, 4, offset];
export const v128Zero = [0xfd, 0x0c, ...new Array<number>(16).fill(0)];

/** A module exporting `fn(a, b, c, d, e)` (five i32, no result) with `body`, and its memory. */
export function kernelModule(fn: string, body: number[]): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), 0]])),
    ...section(3, vec([[0]])),
    ...section(5, vec([[0x00, 1]])),
    ...section(
      7,
      vec([
        [...name(fn), 0x00, 0],
        [...name('memory'), 0x02, 0],
      ]),
    ),
    ...section(10, vec([[...uleb(body.length), ...body]])),
  ]);
}

/** Compiles `bytes` once; null where WebAssembly or its SIMD proposal is unavailable. */
export function compileOnce(bytes: Uint8Array<ArrayBuffer>): () => WebAssembly.Module | null {
  let compiled: WebAssembly.Module | null | undefined;
  return () => {
    if (compiled !== undefined) return compiled;
    try {
      compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    } catch {
      compiled = null;
    }
    return compiled;
  };
}

/** WebAssembly memory pages are 64 KiB. */
export const PAGE = 65536;
