// Where postings appended since the last compaction live: 64 kB pages of bytes, each term's
// postings a chain of slices that grow 8 → 1,024 bytes, the last 4 bytes of a full slice
// pointing at the next (Lucene's ByteBlockPool). Appending a passage writes a few bytes per
// term and allocates nothing per term: no JS object, no array to regrow and copy.
const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
const LINK = 4;
/** Slice sizes by level, link included; all divide PAGE, so a slice never straddles pages. */
const LEVELS = [8, 16, 32, 64, 128, 256, 512, 1024];

export class BytePool {
  private pages: Uint8Array[] = [];
  private used = PAGE;

  /** A new slice of the given level; its address. */
  alloc(level: number): number {
    const size = LEVELS[Math.min(level, LEVELS.length - 1)]!;
    if (this.used + size > PAGE) {
      this.pages.push(new Uint8Array(PAGE));
      this.used = 0;
    }
    const addr = (this.pages.length - 1) * PAGE + this.used;
    this.used += size;
    return addr;
  }

  /** The data capacity (link excluded) of a slice at `level`. */
  static capacity(level: number): number {
    return LEVELS[Math.min(level, LEVELS.length - 1)]! - LINK;
  }

  setByte(addr: number, b: number): void {
    this.pages[addr >>> PAGE_BITS]![addr & (PAGE - 1)] = b;
  }

  setLink(addr: number, next: number): void {
    const p = this.pages[addr >>> PAGE_BITS]!;
    const o = addr & (PAGE - 1);
    p[o] = next & 255;
    p[o + 1] = (next >>> 8) & 255;
    p[o + 2] = (next >>> 16) & 255;
    p[o + 3] = next >>> 24;
  }

  getLink(addr: number): number {
    const p = this.pages[addr >>> PAGE_BITS]!;
    const o = addr & (PAGE - 1);
    return (p[o]! | (p[o + 1]! << 8) | (p[o + 2]! << 16) | (p[o + 3]! << 24)) >>> 0;
  }

  /** Copies `length` data bytes of the chain starting at `head` into `out` at `at`. */
  readChain(head: number, length: number, out: Uint8Array, at: number): void {
    let addr = head;
    let level = 0;
    let left = length;
    while (left > 0) {
      const cap = BytePool.capacity(level);
      const n = Math.min(cap, left);
      const o = addr & (PAGE - 1);
      out.set(this.pages[addr >>> PAGE_BITS]!.subarray(o, o + n), at);
      at += n;
      left -= n;
      if (left > 0) {
        addr = this.getLink(addr + cap);
        level++;
      }
    }
  }

  clear(): void {
    this.pages = [];
    this.used = PAGE;
  }
}
