// The postings each term gained since the last compaction, as a chain of slices in the byte
// pool (byte-pool.ts). Only terms appended to have a chain, so an index loaded from a snapshot
// pays 4 bytes a term for this (the term → chain map), not the 17 a chain costs.
import { BytePool } from './byte-pool';
import { grown } from './grown';

export class TermChains {
  private pool = new BytePool();
  /** Term → its chain + 1 (0: none yet). */
  private chainOf = new Int32Array(0);
  private head = new Uint32Array(0);
  private tail = new Uint32Array(0);
  private end = new Uint32Array(0);
  private level = new Uint8Array(0);
  private len = new Uint32Array(0);
  private count = 0;

  /** No chains, room for `terms` terms. */
  reset(terms: number): void {
    this.pool.clear();
    this.chainOf = new Int32Array(terms);
    this.head = new Uint32Array(0);
    this.tail = new Uint32Array(0);
    this.end = new Uint32Array(0);
    this.level = new Uint8Array(0);
    this.len = new Uint32Array(0);
    this.count = 0;
  }

  ensureTerms(terms: number): void {
    this.chainOf = grown(this.chainOf, terms);
  }

  /** True when no term was appended to since the last reset. */
  empty(): boolean {
    return this.count === 0;
  }

  /** Bytes in all chains. */
  totalBytes(): number {
    let n = 0;
    for (let c = 0; c < this.count; c++) n += this.len[c]!;
    return n;
  }

  putVarint(t: number, v: number): void {
    while (v > 127) {
      this.putByte(t, (v & 127) | 128);
      v >>>= 7;
    }
    this.putByte(t, v);
  }

  private putByte(t: number, b: number): void {
    let c = this.chainOf[t]! - 1;
    if (c < 0) {
      c = this.count++;
      this.chainOf[t] = c + 1;
      const n = this.count;
      this.head = grown(this.head, n);
      this.tail = grown(this.tail, n);
      this.end = grown(this.end, n);
      this.level = grown(this.level, n);
      this.len = grown(this.len, n);
    }
    const level = this.level[c]!;
    if (level === 0 || this.tail[c] === this.end[c]) {
      const addr = this.pool.alloc(level);
      if (level === 0) this.head[c] = addr;
      else this.pool.setLink(this.end[c]!, addr);
      this.tail[c] = addr;
      this.end[c] = addr + BytePool.capacity(level);
      this.level[c] = Math.min(level + 1, 8);
    }
    const at = this.tail[c]!;
    this.pool.setByte(at, b);
    this.tail[c] = at + 1;
    this.len[c] = this.len[c]! + 1;
  }

  /** Bytes appended to the term's chain. */
  bytesOf(t: number): number {
    const c = this.chainOf[t]! - 1;
    return c < 0 ? 0 : this.len[c]!;
  }

  /** Copies the term's chain (`bytesOf(t)` bytes) into `out` at `at`. */
  read(t: number, out: Uint8Array, at: number): void {
    const len = this.bytesOf(t);
    if (len > 0) this.pool.readChain(this.head[this.chainOf[t]! - 1]!, len, out, at);
  }
}
