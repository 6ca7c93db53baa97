// The lexical (BM25) index beside the vector index: one index for every library size, built
// to hold a million passages in a tab (issue 22). It scores exactly as MiniSearch 7 did
// before it (bm25.ts: BM25+, terms OR-ed, the score multiplied by how many query terms
// matched, ties in MiniSearch's order); MiniSearch stays as the test oracle.
// MiniSearch kept a radix tree of term strings and a Map per term: 2.9 GB of heap at 1M
// passages, and its JSON snapshot passed V8's string limit. Here:
// - terms are 64-bit hashes (term-hash.ts) in an open-addressing table of typed arrays;
// - postings are delta-varint (doc gap, tf) bytes (varint.ts): those loaded or compacted lie contiguous
//   per term in one buffer (`base`), those added since are appended to per-term chains in a
//   paged byte pool (term-chains.ts, byte-pool.ts), so adding a passage rebuilds nothing;
// - passage ids are UTF-8 bytes end to end with a hash table of doc numbers (id-table.ts);
// - a removed passage is a tombstone until the next snapshot compacts it away;
// - the snapshot is one binary buffer (word-snapshot.ts), loaded by viewing it, not parsing.
import type { RankedHit } from '../../core/fusion';
import { idealScore, idf, scaledScore, termScore } from './bm25';
import { grown } from './grown';
import { IdTable } from './id-table';
import { TermChains } from './term-chains';
import { hashTerm } from './term-hash';
import { tokenize } from './tokenize';
import { decodePostings, writeVarint } from './varint';
import { decodeWordIndex, encodeWordIndex, SNAPSHOT_FORMAT } from './word-snapshot';

export interface LexicalDoc {
  id: string;
  /** What is searched: the passage's title and text, like the embedding text. */
  text: string;
}

/** The persisted form: the binary word index (word-snapshot.ts). */
export interface LexicalSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  bytes: Uint8Array;
}

/** What a store may hold: the current snapshot, or one from an older version (rebuilt once, e.g. MiniSearch's 'minisearch-7' JSON). */
export type StoredLexicalSnapshot = LexicalSnapshot | { format: string };

/** Passages scored per question at most (beyond the rarest term); see `search`. */
export const POSTINGS_BUDGET = 2000;
/** Doc gaps are written as (gap << 1 | tf is 1) in a 31-bit varint. */
const MAX_DOCS = 2 ** 30 - 1;

export class LexicalIndex {
  // Passages, by dense doc number (order of adding; compaction keeps the order).
  private ids = new IdTable();
  private docLen: Uint32Array = new Uint32Array(0);
  private dead = new Uint8Array(0);
  private docCount = 0;
  private live = 0;
  private deadCount = 0;
  /** Mean passage length in distinct terms, kept by MiniSearch's running formula so scores agree to the last bit. */
  private avgLen = 0;

  // Terms, by dense term number.
  private termCount = 0;
  private hashes: Uint32Array = new Uint32Array(0);
  /** Postings held, tombstoned passages' included. */
  private df = new Uint32Array(0);
  private last = new Int32Array(0);
  private slots = new Int32Array(0);

  // Postings: contiguous from the last compaction or load, then the appended chains.
  private base: Uint8Array = new Uint8Array(0);
  private baseOff: Uint32Array = new Uint32Array(1);
  private baseTerms = 0;
  private chains = new TermChains();

  /** Live postings per term, computed once per term while tombstones exist. */
  private liveDf = new Map<number, number>();
  private dirty = false;

  // Query scratch, reused.
  private readonly h = new Uint32Array(2);
  private docs = new Int32Array(0);
  private tfs = new Uint32Array(0);
  private bytes = new Uint8Array(0);
  private acc = new Float64Array(0);
  private hits = new Uint16Array(0);
  private touched = new Int32Array(0);

  /**
   * The index a snapshot holds; null when the snapshot is from another format or tokenizer
   * version (the caller rebuilds it from the passages). Throws SnapshotError, naming what is
   * wrong, when the bytes are damaged or truncated.
   */
  static fromSnapshot(s: StoredLexicalSnapshot): LexicalIndex | null {
    if (s.format !== SNAPSHOT_FORMAT) return null;
    const p = decodeWordIndex((s as LexicalSnapshot).bytes);
    if (!p) return null;
    const ix = new LexicalIndex();
    ix.docCount = ix.live = p.docCount;
    ix.ids = new IdTable(p.idBlob, p.idStarts, p.docCount);
    // Read in place: the hashes and lengths already held are never written (growing copies them);
    // df and last change on every append, so they are copied and the caller's bytes stay as they were.
    ix.docLen = p.docLen;
    ix.dead = new Uint8Array(p.docCount);
    ix.avgLen = p.avgLen;
    ix.termCount = ix.baseTerms = p.termCount;
    ix.hashes = p.hashes;
    ix.df = p.df.slice();
    ix.last = new Int32Array(p.last);
    ix.base = p.postings;
    ix.baseOff = p.offsets;
    ix.chains.reset(p.termCount);
    ix.rehash();
    return ix;
  }

  size(): number {
    return this.live;
  }

  has(id: string): boolean {
    return this.ids.find(id) >= 0;
  }

  /**
   * Indexes passages not yet indexed. Passage ids are content-addressed (`doc-<hash>#n`),
   * so an id already present already holds this exact text and is not tokenised again.
   */
  add(docs: readonly LexicalDoc[]): number {
    let added = 0;
    const tf = new Map<string, number>();
    for (const d of docs) {
      if (this.ids.find(d.id) >= 0) continue;
      if (this.docCount >= MAX_DOCS) throw new Error(`the word index holds at most ${MAX_DOCS} passages`);
      tf.clear();
      for (const t of tokenize(d.text)) tf.set(t, (tf.get(t) ?? 0) + 1);
      const doc = this.docCount++;
      this.ensureDocs(this.docCount);
      this.ids.add(d.id);
      this.docLen[doc] = tf.size;
      // MiniSearch's addFieldLength, with its count of passages before this one.
      this.avgLen = (this.avgLen * this.live + tf.size) / (this.live + 1);
      this.live++;
      for (const [term, n] of tf) this.append(this.termOf(term, true), doc, n);
      added++;
    }
    if (added) this.dirty = true;
    return added;
  }

  remove(ids: readonly string[]): number {
    let n = 0;
    for (const id of ids) {
      const doc = this.ids.find(id);
      if (doc >= 0) {
        this.tombstone(doc);
        n++;
      }
    }
    return n;
  }

  /** Keeps only the given ids (drops what the library no longer holds); returns how many went. No Set is built: a million ids would cost ~60 MB. */
  retain(ids: Iterable<string>): number {
    const keep = new Uint8Array(this.docCount);
    for (const id of ids) {
      const doc = this.ids.find(id);
      if (doc >= 0) keep[doc] = 1;
    }
    let n = 0;
    for (let doc = 0; doc < this.docCount; doc++) {
      if (!keep[doc] && !this.dead[doc]) {
        this.tombstone(doc);
        n++;
      }
    }
    return n;
  }

  /** The ids in `ids` that are not indexed. */
  missing(ids: readonly string[]): string[] {
    return ids.filter((id) => this.ids.find(id) < 0);
  }

  private tombstone(doc: number): void {
    this.ids.remove(doc);
    this.dead[doc] = 1;
    // MiniSearch's removeFieldLength.
    this.avgLen = this.live === 1 ? 0 : (this.avgLen * this.live - this.docLen[doc]!) / (this.live - 1);
    this.live--;
    this.deadCount++;
    this.liveDf.clear();
    this.dirty = true;
  }

  clear(): void {
    if (this.live > 0) this.dirty = true;
    const dirty = this.dirty;
    Object.assign(this, new LexicalIndex());
    this.dirty = dirty;
  }

  /**
   * The `limit` best passages by BM25, best first; an empty or all-stop-word query finds nothing.
   * Every passage holding a kept query term is scored, so the cost is the sum of the terms'
   * document frequencies. The rarest terms (the ones that carry the weight: IDF ~9 for a rare
   * name, ~1.4 for a word in a quarter of the library) are kept until POSTINGS_BUDGET passages;
   * the commonest beyond it are left out, and so is any word in over a quarter of the library
   * when a rarer one remains. Bounded latency, identical results on short libraries and
   * rare-term questions.
   */
  search(query: string, limit: number): RankedHit[] {
    if (limit <= 0 || this.live === 0) return [];
    const terms = [...new Set(tokenize(query))];
    if (terms.length === 0) return [];
    const termNos = terms.map((t) => this.termOf(t, false));
    const dfs = termNos.map((t) => (t < 0 ? 0 : this.liveDfOf(t)));
    // Rarest first; keep terms while the passages to score stay within the budget (the rarest always).
    const byDf = terms.map((_, i) => i).sort((a, b) => dfs[a]! - dfs[b]!);
    const common = this.live / 4;
    const kept: number[] = [];
    let postings = 0;
    for (const i of byDf) {
      if (kept.length > 0 && (dfs[i]! > common || postings + dfs[i]! > POSTINGS_BUDGET)) break;
      kept.push(i);
      postings += dfs[i]!;
    }
    const touched = this.score(
      kept.map((i) => termNos[i]!),
      kept.map((i) => dfs[i]!),
    );
    const ideal = idealScore(dfs.map((df) => idf(df, this.live)));
    const best = this.top(touched, limit);
    for (let i = 0; i < touched; i++) {
      const doc = this.touched[i]!;
      this.acc[doc] = 0;
      this.hits[doc] = 0;
    }
    return best.map(([doc, sum, matched]) => ({ id: this.ids.id(doc), score: scaledScore(sum, matched, ideal) }));
  }

  /**
   * Adds each kept term's BM25+ to the passages holding it, in MiniSearch's order (term by
   * term, passages in index order) and with its arithmetic, so sums agree to the bit.
   * Returns how many passages were touched (listed in `this.touched` in first-seen order).
   */
  private score(termNos: number[], dfs: number[]): number {
    this.acc = grown(this.acc, this.docCount);
    this.hits = grown(this.hits, this.docCount);
    this.touched = grown(this.touched, this.docCount);
    const n = this.live;
    const avg = this.avgLen;
    let touched = 0;
    for (let j = 0; j < termNos.length; j++) {
      const t = termNos[j]!;
      const matching = dfs[j]!;
      if (t < 0 || matching === 0) continue;
      const count = this.decode(t);
      const invDocFreq = idf(matching, n);
      const { docs, tfs, acc, hits, dead, docLen } = this;
      for (let i = 0; i < count; i++) {
        const doc = docs[i]!;
        if (dead[doc]) continue;
        const rawScore = termScore(invDocFreq, tfs[i]!, docLen[doc]!, avg);
        if (hits[doc] === 0) {
          acc[doc] = rawScore;
          this.touched[touched++] = doc;
        } else {
          acc[doc] = acc[doc]! + rawScore;
        }
        hits[doc] = hits[doc]! + 1;
      }
    }
    return touched;
  }

  /** The best `limit` touched passages by score × terms matched, as [doc, score, terms matched]; equal scores keep first-seen order (MiniSearch's stable sort). */
  private top(touched: number, limit: number): Array<[number, number, number]> {
    const best: Array<[number, number, number]> = [];
    // Sorted best first; insertion keeps it so (limit is small: 10–50).
    for (let i = 0; i < touched; i++) {
      const doc = this.touched[i]!;
      const s = this.acc[doc]! * this.hits[doc]!;
      if (best.length === limit && !(s > best[limit - 1]![1])) continue;
      let at = best.length;
      while (at > 0 && s > best[at - 1]![1]) at--;
      best.splice(at, 0, [doc, s, i]);
      if (best.length > limit) best.pop();
    }
    return best.map(([doc]) => [doc, this.acc[doc]!, this.hits[doc]!]);
  }

  isDirty(): boolean {
    return this.dirty;
  }

  /**
   * The binary snapshot. Compacts first (tombstones dropped, appended chains laid contiguous:
   * a copy of bytes, nothing re-tokenised), so a reloaded snapshot scores exactly like a fresh
   * build and the index in memory sheds its chains.
   */
  async snapshot(): Promise<LexicalSnapshot> {
    this.compact();
    const bytes = encodeWordIndex({
      docCount: this.docCount,
      termCount: this.termCount,
      avgLen: this.avgLen,
      hashes: this.hashes,
      df: this.df,
      last: new Uint32Array(this.last.buffer, 0, this.termCount),
      offsets: this.baseOff,
      docLen: this.docLen,
      idBlob: this.ids.parts().blob,
      idStarts: this.ids.parts().starts,
      postings: this.base,
    });
    this.dirty = false;
    return { format: SNAPSHOT_FORMAT, bytes };
  }

  // ---- terms ----

  /** The term's number; -1 when absent and not to be created. */
  private termOf(term: string, create: boolean): number {
    const h = this.h;
    hashTerm(term, h);
    const mask = this.slots.length - 1;
    if (mask >= 0) {
      for (let s = h[0]! & mask; ; s = (s + 1) & mask) {
        const t = this.slots[s]! - 1;
        if (t < 0) break;
        if (this.hashes[2 * t] === h[0] && this.hashes[2 * t + 1] === h[1]) return t;
      }
    }
    if (!create) return -1;
    const t = this.termCount++;
    this.ensureTerms(this.termCount);
    this.hashes[2 * t] = h[0]!;
    this.hashes[2 * t + 1] = h[1]!;
    this.last[t] = -1;
    this.df[t] = 0;
    if (this.termCount * 4 > this.slots.length * 3) this.rehash();
    else this.place(t);
    return t;
  }

  private place(t: number): void {
    const mask = this.slots.length - 1;
    let s = this.hashes[2 * t]! & mask;
    while (this.slots[s] !== 0) s = (s + 1) & mask;
    this.slots[s] = t + 1;
  }

  /** A table a quarter to half full after growing, three quarters at most: probes stay short, and it costs ~10 bytes a term. */
  private rehash(): void {
    let cap = 16;
    while (cap < this.termCount * 2) cap *= 2;
    this.slots = new Int32Array(cap);
    for (let t = 0; t < this.termCount; t++) this.place(t);
  }

  private ensureTerms(n: number): void {
    this.hashes = grown(this.hashes, 2 * n);
    this.df = grown(this.df, n);
    this.last = grown(this.last, n);
    this.chains.ensureTerms(n);
  }

  private ensureDocs(n: number): void {
    this.docLen = grown(this.docLen, n);
    this.dead = grown(this.dead, n);
  }

  // ---- postings ----

  private append(t: number, doc: number, tf: number): void {
    const gap = doc - this.last[t]!;
    this.last[t] = doc;
    this.df[t] = this.df[t]! + 1;
    this.chains.putVarint(t, (gap << 1) | (tf === 1 ? 1 : 0));
    if (tf !== 1) this.chains.putVarint(t, tf);
  }

  /** Decodes the term's postings (tombstoned passages included) into `docs`/`tfs`; returns how many. */
  private decode(t: number): number {
    const count = this.df[t]!;
    this.docs = grown(this.docs, count);
    this.tfs = grown(this.tfs, count);
    let doc = -1;
    let k = 0;
    if (t < this.baseTerms)
      [doc, k] = decodePostings(this.base, this.baseOff[t]!, this.baseOff[t + 1]!, doc, k, this.docs, this.tfs);
    const len = this.chains.bytesOf(t);
    if (len > 0) {
      this.bytes = grown(this.bytes, len);
      this.chains.read(t, this.bytes, 0);
      [doc, k] = decodePostings(this.bytes, 0, len, doc, k, this.docs, this.tfs);
    }
    return k;
  }

  private liveDfOf(t: number): number {
    if (this.deadCount === 0) return this.df[t]!;
    let n = this.liveDf.get(t);
    if (n === undefined) {
      const count = this.decode(t);
      n = 0;
      for (let i = 0; i < count; i++) if (!this.dead[this.docs[i]!]) n++;
      this.liveDf.set(t, n);
    }
    return n;
  }

  /**
   * Lays every term's postings contiguous in a new base and empties the pool. Without
   * tombstones that is a copy of bytes (the chains continue the base's gaps); with them,
   * each term is decoded and written again without the removed passages, and passages
   * are renumbered in the same order (so ties still fall as in a fresh build).
   */
  private compact(): void {
    if (this.chains.empty() && this.deadCount === 0) return;
    if (this.deadCount === 0) {
      const size = this.base.length + this.chains.totalBytes();
      const out = new Uint8Array(size);
      const offsets = new Uint32Array(this.termCount + 1);
      let at = 0;
      for (let t = 0; t < this.termCount; t++) {
        offsets[t] = at;
        if (t < this.baseTerms) {
          out.set(this.base.subarray(this.baseOff[t]!, this.baseOff[t + 1]!), at);
          at += this.baseOff[t + 1]! - this.baseOff[t]!;
        }
        this.chains.read(t, out, at);
        at += this.chains.bytesOf(t);
      }
      offsets[this.termCount] = at;
      this.adopt(out, offsets, this.termCount);
      return;
    }
    const renumber = new Int32Array(this.docCount);
    const keep = new Int32Array(this.live);
    const docLen = new Uint32Array(this.live);
    let kept = 0;
    for (let doc = 0; doc < this.docCount; doc++) {
      if (this.dead[doc]) {
        renumber[doc] = -1;
        continue;
      }
      renumber[doc] = kept;
      docLen[kept] = this.docLen[doc]!;
      keep[kept++] = doc;
    }
    // The hashes may be a loaded snapshot's bytes, which are read, never written.
    this.hashes = this.hashes.slice();
    // Dropping passages only merges gaps and drops tf bytes: the old size is an upper bound.
    const out = new Uint8Array(this.base.length + this.chains.totalBytes());
    const offsets = new Uint32Array(this.termCount + 1);
    let at = 0;
    let terms = 0;
    for (let t = 0; t < this.termCount; t++) {
      const count = this.decode(t);
      const start = at;
      let prev = -1;
      let held = 0;
      for (let i = 0; i < count; i++) {
        const doc = renumber[this.docs[i]!]!;
        if (doc < 0) continue;
        const tf = this.tfs[i]!;
        at = writeVarint(out, at, ((doc - prev) << 1) | (tf === 1 ? 1 : 0));
        if (tf !== 1) at = writeVarint(out, at, tf);
        prev = doc;
        held++;
      }
      if (held === 0) continue;
      // Term numbers close up over terms no passage holds any more (t ≥ terms, so nothing is overwritten early).
      offsets[terms] = start;
      this.hashes[2 * terms] = this.hashes[2 * t]!;
      this.hashes[2 * terms + 1] = this.hashes[2 * t + 1]!;
      this.df[terms] = held;
      this.last[terms] = prev;
      terms++;
    }
    offsets[terms] = at;
    this.ids = this.ids.select(keep, kept);
    this.docLen = docLen;
    this.dead = new Uint8Array(this.live);
    this.docCount = this.live;
    this.deadCount = 0;
    this.liveDf.clear();
    this.adopt(out.slice(0, at), offsets.slice(0, terms + 1), terms);
  }

  private adopt(base: Uint8Array, offsets: Uint32Array, terms: number): void {
    const rehash = terms !== this.termCount;
    this.base = base;
    this.baseOff = offsets;
    this.termCount = this.baseTerms = terms;
    this.chains.reset(Math.max(terms, 16));
    if (rehash) this.rehash();
  }
}
