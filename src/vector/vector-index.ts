// The vector index port and its implementation-neutral binary format, so a
// library persisted by one index kind loads into any other.

export interface VectorHit {
  id: string;
  /** Cosine similarity (dot product of unit vectors), higher is closer. */
  score: number;
}

export interface VectorIndex {
  /** 'flat', 'voy' or 'compact'. */
  readonly kind: IndexKind;
  readonly dim: number;
  size(): number;
  has(id: string): boolean;
  /** Adds or replaces vectors by id; vectors are normalised on the way in. */
  add(ids: readonly string[], vectors: readonly Float32Array[]): void;
  /** Removes the ids present; returns how many were removed. */
  remove(ids: readonly string[]): number;
  clear(): void;
  /** The k nearest by cosine, best first. */
  search(query: Float32Array, k: number): VectorHit[];
  /** Cosine of a unit query with one stored passage (one the nearest-neighbour list did not reach); undefined if absent. */
  cosine(query: Float32Array, id: string): number | undefined;
  /** The bytes of `encodeVectors` for everything in the index. */
  serialize(): Uint8Array;
}

export type IndexKind = 'flat' | 'voy' | 'compact';

/** What the library is asked to use: one kind, or 'auto' (flat while small, compact once large). */
export type IndexChoice = IndexKind | 'auto';

const MAGIC = 0x31584956; // "VIX1" little-endian
const HEADER = 16;

/** Euclidean length; a wrong-sized, zero or non-finite vector is an error, not a silent NaN later. */
export function vectorNorm(v: Float32Array, dim: number): number {
  if (v.length !== dim) throw new Error(`vector has ${v.length} dimensions, the index has ${dim}`);
  let sum = 0;
  for (let i = 0; i < dim; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (!(norm > 0) || !Number.isFinite(norm)) throw new Error('cannot index a zero or non-finite vector');
  return norm;
}

/** Copies `v` scaled to unit length. */
export function normalise(v: Float32Array, dim: number): Float32Array {
  const norm = vectorNorm(v, dim);
  const out = new Float32Array(dim);
  for (let i = 0; i < dim; i++) out[i] = (v[i] ?? 0) / norm;
  return out;
}

export interface EncodedVectors {
  dim: number;
  ids: string[];
  /** Row-major, `ids.length × dim`. */
  data: Float32Array;
}

/**
 * Layout: u32 magic, u32 dim, u32 count, u32 idBytes, UTF-8 JSON array of ids,
 * zero padding to 4 bytes, then count × dim little-endian float32.
 * Overhead over the raw floats is the ids only.
 */
export function encodeVectors({ dim, ids, data }: EncodedVectors): Uint8Array {
  if (data.length < ids.length * dim) throw new Error('vector data shorter than ids × dim');
  const idBytes = new TextEncoder().encode(JSON.stringify(ids));
  const floatsAt = HEADER + Math.ceil(idBytes.length / 4) * 4;
  const out = new Uint8Array(floatsAt + ids.length * dim * 4);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, dim, true);
  view.setUint32(8, ids.length, true);
  view.setUint32(12, idBytes.length, true);
  out.set(idBytes, HEADER);
  const floats = new Float32Array(out.buffer, floatsAt, ids.length * dim);
  floats.set(data.subarray(0, ids.length * dim));
  if (!littleEndian()) swap32(out.subarray(floatsAt));
  return out;
}

export function decodeVectors(bytes: Uint8Array): EncodedVectors {
  if (bytes.length < HEADER) throw new Error('vector index file is truncated (no header)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new Error('not a vector index file (bad magic)');
  const dim = view.getUint32(4, true);
  const count = view.getUint32(8, true);
  const idLen = view.getUint32(12, true);
  const floatsAt = HEADER + Math.ceil(idLen / 4) * 4;
  if (bytes.length !== floatsAt + count * dim * 4)
    throw new Error('vector index file is truncated or has trailing bytes');
  const ids: unknown = JSON.parse(
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEADER, HEADER + idLen)),
  );
  if (!Array.isArray(ids) || ids.length !== count || !ids.every((x) => typeof x === 'string')) {
    throw new Error('vector index file has a malformed id list');
  }
  // Copy so the floats are aligned and independent of the caller's buffer.
  const raw = bytes.slice(floatsAt);
  if (!littleEndian()) swap32(raw);
  return { dim, ids: ids as string[], data: new Float32Array(raw.buffer, 0, count * dim) };
}

function littleEndian(): boolean {
  return new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
}

function swap32(b: Uint8Array): void {
  for (let i = 0; i + 3 < b.length; i += 4) {
    const [a, c, d, e] = [b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!];
    b[i] = e;
    b[i + 1] = d;
    b[i + 2] = c;
    b[i + 3] = a;
  }
}

/** Keeps the k best hits seen so far, best first; cheap for the small k retrieval uses. */
export class TopK {
  readonly ids: string[] = [];
  readonly scores: number[] = [];
  constructor(private readonly k: number) {}
  worst(): number {
    return this.scores.length < this.k ? -Infinity : (this.scores[this.scores.length - 1] ?? -Infinity);
  }
  push(id: string, score: number): void {
    if (this.k <= 0 || score <= this.worst()) return;
    let i = this.scores.length;
    while (i > 0 && (this.scores[i - 1] ?? 0) < score) i--;
    this.scores.splice(i, 0, score);
    this.ids.splice(i, 0, id);
    if (this.scores.length > this.k) {
      this.scores.pop();
      this.ids.pop();
    }
  }
  hits(): VectorHit[] {
    return this.ids.map((id, i) => ({ id, score: this.scores[i] ?? 0 }));
  }
}
