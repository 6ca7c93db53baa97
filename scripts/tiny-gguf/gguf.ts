// Writes a GGUF v3 file: header, metadata, tensor infos, then F32 tensor data
// aligned to 32 bytes (general.alignment's default). Only the value types the
// tiny models need.

export type GgufValue =
  | { type: 'u32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'strings'; value: readonly string[] }
  | { type: 'i32s'; value: readonly number[] };

export interface GgufTensor {
  name: string;
  /** ggml order: the first dimension is the contiguous one (row length). */
  dims: readonly number[];
  data: Float32Array;
}

const ALIGN = 32;
const T = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;

class Out {
  private chunks: Uint8Array[] = [];
  size = 0;
  private push(b: Uint8Array): void {
    this.chunks.push(b);
    this.size += b.length;
  }
  u32(n: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, n, true);
    this.push(b);
  }
  i32(n: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, n, true);
    this.push(b);
  }
  u64(n: number): void {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(n), true);
    this.push(b);
  }
  f32(n: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, n, true);
    this.push(b);
  }
  str(s: string): void {
    const b = new TextEncoder().encode(s);
    this.u64(b.length);
    this.push(b);
  }
  bytes(b: Uint8Array): void {
    this.push(b);
  }
  pad(): void {
    const n = (ALIGN - (this.size % ALIGN)) % ALIGN;
    if (n) this.push(new Uint8Array(n));
  }
  join(): Uint8Array {
    const all = new Uint8Array(this.size);
    let at = 0;
    for (const c of this.chunks) {
      all.set(c, at);
      at += c.length;
    }
    return all;
  }
}

export function writeGguf(meta: Record<string, GgufValue>, tensors: readonly GgufTensor[]): Uint8Array {
  const out = new Out();
  out.bytes(new TextEncoder().encode('GGUF'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(Object.keys(meta).length);
  for (const [key, v] of Object.entries(meta)) {
    out.str(key);
    switch (v.type) {
      case 'u32':
        out.u32(T.u32);
        out.u32(v.value);
        break;
      case 'f32':
        out.u32(T.f32);
        out.f32(v.value);
        break;
      case 'bool':
        out.u32(T.bool);
        out.bytes(new Uint8Array([v.value ? 1 : 0]));
        break;
      case 'string':
        out.u32(T.string);
        out.str(v.value);
        break;
      case 'strings':
        out.u32(T.array);
        out.u32(T.string);
        out.u64(v.value.length);
        v.value.forEach((s) => out.str(s));
        break;
      case 'i32s':
        out.u32(T.array);
        out.u32(T.i32);
        out.u64(v.value.length);
        v.value.forEach((n) => out.i32(n));
        break;
    }
  }
  let offset = 0;
  for (const t of tensors) {
    out.str(t.name);
    out.u32(t.dims.length);
    t.dims.forEach((d) => out.u64(d));
    out.u32(0); // GGML_TYPE_F32
    out.u64(offset);
    offset += Math.ceil((t.data.length * 4) / ALIGN) * ALIGN;
  }
  out.pad();
  for (const t of tensors) {
    out.bytes(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    out.pad();
  }
  return out.join();
}
