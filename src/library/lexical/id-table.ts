// Passage ids by doc number and back, without a JS string or Map entry per passage: the ids'
// UTF-8 bytes lie end to end in one buffer (with the start of each), and an open-addressing
// table of doc numbers finds an id by hash and byte comparison. At a million passages the
// strings and Map took ~100 MB; this takes ~35 MB, and a snapshot's ids are used in place.
import { avalanche, fnv1aBytes, fnv1aString } from '../../core/fnv1a';

const EMPTY = 0;
const GONE = -1;

const hashBytes = (b: Uint8Array, from: number, to: number) => avalanche(fnv1aBytes(b, from, to));
/** An ASCII id's hash without encoding it: its code units are its UTF-8 bytes. */
const hashAscii = (s: string) => avalanche(fnv1aString(s));

export class IdTable {
  private blob: Uint8Array;
  private used: number;
  /** starts[doc] .. starts[doc + 1]: the doc's id bytes. */
  private starts: Uint32Array;
  private count: number;
  private slots = new Int32Array(16);
  private filled = 0;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  /** An empty table, or one over a snapshot's id bytes and starts (used in place until it grows). */
  constructor(blob?: Uint8Array, starts?: Uint32Array, count = 0) {
    this.blob = blob ?? new Uint8Array(1024);
    this.starts = starts ?? new Uint32Array(16);
    this.count = count;
    this.used = this.starts[count]!;
    this.sized(count);
    for (let d = 0; d < count; d++) this.place(d);
  }

  /** Doc slots held (removed ones included until compaction). */
  size(): number {
    return this.count;
  }

  /** The id bytes and starts, for a snapshot. */
  parts(): { blob: Uint8Array; starts: Uint32Array } {
    return { blob: this.blob.subarray(0, this.used), starts: this.starts.subarray(0, this.count + 1) };
  }

  /** Appends an id (the caller checked it is absent); returns its doc number. */
  add(id: string): number {
    const ascii = isAscii(id);
    const enc = ascii ? null : this.encoder.encode(id);
    const len = enc ? enc.length : id.length;
    if (this.used + len > this.blob.length) {
      const next = new Uint8Array(Math.max(this.used + len, Math.ceil(this.blob.length * 1.5)));
      next.set(this.blob.subarray(0, this.used));
      this.blob = next;
    }
    if (enc) this.blob.set(enc, this.used);
    else for (let i = 0; i < len; i++) this.blob[this.used + i] = id.charCodeAt(i);
    const doc = this.count++;
    if (this.count + 1 > this.starts.length) {
      const next = new Uint32Array(Math.ceil((this.count + 1) * 1.5));
      next.set(this.starts);
      this.starts = next;
    }
    this.used += len;
    this.starts[doc + 1] = this.used;
    if ((this.filled + 1) * 2 > this.slots.length) this.grow();
    this.place(doc);
    return doc;
  }

  /** The doc number of a held id, or -1. */
  find(id: string): number {
    const enc = isAscii(id) ? null : this.encoder.encode(id);
    const h = enc ? hashBytes(enc, 0, enc.length) : hashAscii(id);
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const v = this.slots[s]!;
      if (v === EMPTY) return -1;
      if (v !== GONE && this.equals(v - 1, id, enc)) return v - 1;
    }
  }

  /** Forgets a doc's id (its bytes stay until compaction). */
  remove(doc: number): void {
    const mask = this.slots.length - 1;
    for (let s = hashBytes(this.blob, this.starts[doc]!, this.starts[doc + 1]!) & mask; ; s = (s + 1) & mask) {
      const v = this.slots[s]!;
      if (v === EMPTY) return;
      if (v === doc + 1) {
        this.slots[s] = GONE;
        return;
      }
    }
  }

  id(doc: number): string {
    return this.decoder.decode(this.blob.subarray(this.starts[doc]!, this.starts[doc + 1]!));
  }

  /** A new table holding the docs `keep` names, in that order (doc numbers become their positions). */
  select(keep: Int32Array, n: number): IdTable {
    let total = 0;
    for (let i = 0; i < n; i++) total += this.starts[keep[i]! + 1]! - this.starts[keep[i]!]!;
    const blob = new Uint8Array(total);
    const starts = new Uint32Array(n + 1);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const d = keep[i]!;
      blob.set(this.blob.subarray(this.starts[d]!, this.starts[d + 1]!), at);
      at += this.starts[d + 1]! - this.starts[d]!;
      starts[i + 1] = at;
    }
    return new IdTable(blob, starts, n);
  }

  private equals(doc: number, id: string, enc: Uint8Array | null): boolean {
    const from = this.starts[doc]!;
    const len = this.starts[doc + 1]! - from;
    if (enc) {
      if (enc.length !== len) return false;
      for (let i = 0; i < len; i++) if (this.blob[from + i] !== enc[i]) return false;
      return true;
    }
    if (id.length !== len) return false;
    for (let i = 0; i < len; i++) if (this.blob[from + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  private place(doc: number): void {
    const mask = this.slots.length - 1;
    let s = hashBytes(this.blob, this.starts[doc]!, this.starts[doc + 1]!) & mask;
    while (this.slots[s] !== EMPTY) s = (s + 1) & mask;
    this.slots[s] = doc + 1;
    this.filled++;
  }

  /** A table at most half full, over the ids the old one held (removed ids' slots are dropped). */
  private grow(): void {
    const held: number[] = [];
    for (const v of this.slots) if (v > 0) held.push(v - 1);
    this.sized(held.length + 1);
    for (const d of held) this.place(d);
  }

  private sized(n: number): void {
    let cap = 16;
    while (cap < n * 2 + 2) cap *= 2;
    this.slots = new Int32Array(cap);
    this.filled = 0;
  }
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}
