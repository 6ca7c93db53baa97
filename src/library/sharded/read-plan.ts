// Which byte ranges a question needs, round by round, from what the rounds before decoded:
// pure functions, no I/O (as hyparquet keeps `parquetPlan` apart from its AsyncBuffer), so the
// plan is tested on its own. reader.ts fetches what a plan names (range-source.ts) and hands
// the decoded blocks to the search (search.ts).
//
//   round 1  the sub-centroid blocks of the nearest tops      `topBlocks`
//            the word-table pages of the question's terms      `wordPages`
//   round 2  the lists of the best sub-centroids               `listBlocks`
//            the word shards of the question's terms           `wordShards`
//   round 3  the row records of the best candidates by code    `rowBlocks`
//   round 4  the texts of the passages kept                    `textBlocks`
import type { ListRef } from './format/centroids';
import type { CorpusIndex } from './format/index-block';
import type { ShardedManifest } from './format/manifest';
import type { TextPointer } from './format/rows';
import { shardInPage, termShard } from './format/words';
import type { BlockRef } from './range-source';

/** Row `i` of list `c`. */
export interface Candidate {
  c: number;
  i: number;
}

/** A probed list as the plan needs it: where its rows start in rows.bin, how many, and each row record's hash. */
export interface ProbedRows {
  c: number;
  firstRow: number;
  count: number;
  rowHash(i: number): string;
}

export function topBlocks(index: CorpusIndex, tops: readonly number[]): BlockRef[] {
  const t = index.tops;
  return tops.map((top) => ({
    offset: t.offset[top]!,
    bytes: t.bytes[top]!,
    hash: t.sha[top]!,
    what: `centroid block ${top}`,
    skipped: 'its lists were skipped',
  }));
}

/** The word shards the terms hash to, and the word-table pages that say where those shards lie. */
export function wordPages(
  m: ShardedManifest,
  index: CorpusIndex,
  terms: readonly string[],
): { shards: number[]; pages: number[]; refs: BlockRef[] } {
  const shards = [...new Set(terms.map((t) => termShard(t, m.words.count)))];
  const pages = [...new Set(shards.map((s) => Math.floor(s / m.words.page)))];
  const p = index.pages;
  return {
    shards,
    pages,
    refs: pages.map((n) => ({
      offset: p.offset[n]!,
      bytes: p.bytes[n]!,
      hash: p.sha[n]!,
      what: `word-table page ${n}`,
      skipped: 'the words it indexes were skipped',
    })),
  };
}

/** Where each shard lies, read from its page; shards whose page did not come are left out. */
export function wordShards(
  shards: readonly number[],
  pages: ReadonlyMap<number, Uint8Array>,
  pageSize: number,
): Array<BlockRef & { s: number }> {
  const out: Array<BlockRef & { s: number }> = [];
  for (const s of shards) {
    const page = pages.get(Math.floor(s / pageSize));
    if (!page) continue;
    const { offset, bytes, sha } = shardInPage(page, s, pageSize);
    out.push({ s, offset, bytes, hash: sha, what: `word shard ${s}` });
  }
  return out;
}

export function listBlocks(lists: readonly ListRef[]): BlockRef[] {
  return lists.map((ref) => ({ offset: ref.offset, bytes: ref.bytes, hash: ref.sha, what: `list ${ref.c}` }));
}

export interface RowRead {
  /** One block per row record to read, runs of rows in one group each. */
  refs: BlockRef[];
  /** The row each ref is. */
  rows: Candidate[];
  /** Whether each ref was wanted (the others lie between wanted rows, come in the same range, and are scored too). */
  wanted: boolean[];
}

/**
 * The row records of the `wanted` candidates in rows.bin, which holds the lists one after
 * another. Wanted rows up to `gap` rows apart form one run (one range request), across the end
 * of one probed list into the next too, as long as every row between is a probed list's (its
 * hash is then known, so it can be checked). Runs are made from every wanted row, cached or
 * not, so a question asked again scores the same rows.
 */
export function rowBlocks(
  wanted: readonly Candidate[],
  probed: readonly ProbedRows[],
  gap: number,
  recordBytes: number,
): RowRead {
  const byList = new Map(probed.map((p) => [p.c, p]));
  const spans = [...probed].sort((x, y) => x.firstRow - y.firstRow);
  const locate = (r: number): Candidate | undefined => {
    let lo = 0,
      hi = spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (spans[mid]!.firstRow + spans[mid]!.count <= r) lo = mid + 1;
      else hi = mid;
    }
    const s = spans[lo];
    return s && s.firstRow <= r ? { c: s.c, i: r - s.firstRow } : undefined;
  };
  const rowOf = (w: Candidate) => byList.get(w.c)!.firstRow + w.i;
  const runs: Array<{ from: number; to: number }> = [];
  for (const r of wanted.map(rowOf).sort((x, y) => x - y)) {
    const last = runs[runs.length - 1];
    let joins = !!last && r - last.to - 1 <= gap;
    for (let b = last ? last.to + 1 : r; joins && b < r; b++) joins = !!locate(b);
    if (joins) last!.to = r;
    else runs.push({ from: r, to: r });
  }
  const isWanted = new Set(wanted.map((w) => `${w.c}:${w.i}`));
  const read: RowRead = { refs: [], rows: [], wanted: [] };
  runs.forEach(({ from, to }, group) => {
    for (let r = from; r <= to; r++) {
      const w = locate(r)!;
      read.rows.push(w);
      read.wanted.push(isWanted.has(`${w.c}:${w.i}`));
      read.refs.push({
        offset: r * recordBytes,
        bytes: recordBytes,
        hash: byList.get(w.c)!.rowHash(w.i),
        what: `row ${r}`,
        group,
      });
    }
  });
  return read;
}

export function textBlocks(pointers: readonly TextPointer[]): BlockRef[] {
  return pointers.map((p) => ({ offset: p.offset, bytes: p.bytes, hash: p.hash, what: `passage at ${p.offset}` }));
}
