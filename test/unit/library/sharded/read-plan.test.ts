// The read plan of a sharded corpus without any I/O: which byte ranges each round of a
// question reads, from the blocks the earlier rounds decoded.
import { describe, expect, it } from 'vitest';
import type { CorpusIndex } from '../../../../src/library/sharded/format/index-block';
import type { ShardedManifest } from '../../../../src/library/sharded/format/manifest';
import { termShard } from '../../../../src/library/sharded/format/words';
import {
  listBlocks,
  rowBlocks,
  textBlocks,
  topBlocks,
  wordPages,
  wordShards,
  type ProbedRows,
} from '../../../../src/library/sharded/read-plan';

const index = {
  centre: new Float32Array(0),
  spread: new Float32Array(0),
  tops: {
    centroids: new Uint8Array(0),
    subs: [2, 3, 1],
    firstList: [0, 2, 5],
    offset: [0, 100, 250],
    bytes: [100, 150, 50],
    sha: ['aa', 'bb', 'cc'],
  },
  pages: { offset: [0, 40], bytes: [40, 24], sha: ['p0', 'p1'] },
} as CorpusIndex;
const manifest = { words: { count: 6, page: 4 } } as ShardedManifest;

/** A word-table page as format/words.ts lays it out: f64 first offset, then per shard u32 bytes and a 16-byte hash. */
function page(first: number, sizes: number[]): Uint8Array {
  const out = new Uint8Array(8 + sizes.length * 20);
  const view = new DataView(out.buffer);
  view.setFloat64(0, first, true);
  sizes.forEach((s, i) => {
    view.setUint32(8 + i * 20, s, true);
    out.fill(i + 1, 12 + i * 20, 28 + i * 20);
  });
  return out;
}

const list = (c: number, firstRow: number, count: number): ProbedRows => ({
  c,
  firstRow,
  count,
  rowHash: (i) => `h${c}.${i}`,
});

describe('read plan', () => {
  it('reads the blocks of the tops asked for, each named with what its loss costs', () => {
    expect(topBlocks(index, [2, 0])).toEqual([
      { offset: 250, bytes: 50, hash: 'cc', what: 'centroid block 2', skipped: 'its lists were skipped' },
      { offset: 0, bytes: 100, hash: 'aa', what: 'centroid block 0', skipped: 'its lists were skipped' },
    ]);
  });

  it('reads each word-table page once for the shards the terms hash to', () => {
    const terms = ['alpha', 'beta', 'gamma', 'delta'];
    const plan = wordPages(manifest, index, terms);
    expect(plan.shards).toEqual([...new Set(terms.map((t) => termShard(t, 6)))]);
    expect(plan.pages).toEqual([...new Set(plan.shards.map((s) => Math.floor(s / 4)))]);
    expect(plan.refs.map((r) => r.what)).toEqual(plan.pages.map((p) => `word-table page ${p}`));
    expect(new Set(plan.refs.map((r) => r.offset)).size).toBe(plan.pages.length);
  });

  it('finds a shard’s range from its page, and leaves out shards whose page did not come', () => {
    const pages = new Map([[1, page(5000, [30, 70])]]);
    const refs = wordShards([5, 4, 1], pages, 4);
    expect(refs.map(({ s, offset, bytes }) => ({ s, offset, bytes }))).toEqual([
      { s: 5, offset: 5030, bytes: 70 },
      { s: 4, offset: 5000, bytes: 30 },
    ]);
    expect(refs[0]!.hash).toBe('02'.repeat(16));
  });

  it('reads a list where the centroid block says it lies', () => {
    expect(listBlocks([{ c: 7, count: 3, offset: 900, bytes: 120, sha: 'ff', firstRow: 30 }])).toEqual([
      { offset: 900, bytes: 120, hash: 'ff', what: 'list 7' },
    ]);
  });

  it('reads wanted rows within the gap in one run, the rows between too, and others apart', () => {
    const read = rowBlocks(
      [
        { c: 0, i: 1 },
        { c: 0, i: 4 },
        { c: 0, i: 9 },
      ],
      [list(0, 10, 12)],
      2,
      8,
    );
    // Rows 11 and 14 are 2 apart: one run 11–14; row 19 is 5 further: a run of its own.
    expect(read.refs.map((r) => [r.offset / 8, r.group])).toEqual([
      [11, 0],
      [12, 0],
      [13, 0],
      [14, 0],
      [19, 1],
    ]);
    expect(read.wanted).toEqual([true, false, false, true, true]);
    expect(read.refs[1]).toMatchObject({ bytes: 8, hash: 'h0.2' });
  });

  it('joins runs across the end of one probed list into the next, never over a list not probed', () => {
    const joined = rowBlocks(
      [
        { c: 0, i: 4 },
        { c: 1, i: 0 },
      ],
      [list(0, 0, 5), list(1, 5, 5)],
      1,
      8,
    );
    expect(joined.refs.map((r) => r.group)).toEqual([0, 0]);
    expect(joined.rows).toEqual([
      { c: 0, i: 4 },
      { c: 1, i: 0 },
    ]);
    // List 1 (rows 5–9) is not probed: rows 4 and 10 stay apart, however wide the gap.
    const apart = rowBlocks(
      [
        { c: 0, i: 4 },
        { c: 2, i: 0 },
      ],
      [list(0, 0, 5), list(2, 10, 5)],
      10,
      8,
    );
    expect(apart.refs.map((r) => [r.offset / 8, r.group])).toEqual([
      [4, 0],
      [10, 1],
    ]);
  });

  it('reads each kept passage’s text where its pointer says', () => {
    expect(textBlocks([{ offset: 12, bytes: 40, hash: '0123456789abcdef' }])).toEqual([
      { offset: 12, bytes: 40, hash: '0123456789abcdef', what: 'passage at 12' },
    ]);
  });
});
