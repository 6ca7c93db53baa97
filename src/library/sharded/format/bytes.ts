// What every block of the format shares: the shortened SHA-256 hashes that chain the blocks
// (./manifest.ts tells the chain) and RaBitQ's float32 factors, little-endian.

/** Bytes of SHA-256 kept for a row record (in its list) and for a text (in its pointer). */
export const SHORT_HASH_BYTES = 8;
/** Bytes of SHA-256 kept for a list or a word shard (in index.bin). */
export const TABLE_HASH_BYTES = 16;

export const hexOf = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');

export function writeHex(out: Uint8Array, at: number, hex: string, bytes: number): void {
  for (let i = 0; i < bytes; i++) out[at + i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
}

export function writeFactors(out: Uint8Array, at: number, factors: ArrayLike<number>, count: number): void {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i < count; i++) view.setFloat32(at + i * 4, factors[i]!, true);
}

export function readFactors(bytes: Uint8Array, at: number, count: number): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float32Array.from({ length: count }, (_, i) => view.getFloat32(at + i * 4, true));
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
