// The one range source of the sharded reader: cache first, neighbours in one request, each
// block checked and refused alone, the whole file where a server ignores Range, and the
// requests counted in the stats of the question that made them.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryBlockCache } from '../../../../src/library/sharded/block-cache';
import {
  BlockError,
  noStats,
  RangeSource,
  RangeUnsupportedError,
  sharedRanges,
  type BlockRef,
} from '../../../../src/library/sharded/range-source';
import { rangeFetch } from '../../../doubles/range-fetch';

const BASE = 'https://static.example/corpus/';
const data = Uint8Array.from({ length: 4096 }, (_, i) => (i * 31) % 251);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const ref = (offset: number, bytes: number, extra: Partial<BlockRef> = {}): BlockRef => ({
  offset,
  bytes,
  hash: sha(data.subarray(offset, offset + bytes)).slice(0, 16),
  what: `block at ${offset}`,
  ...extra,
});

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'range-source-'));
  writeFileSync(join(dir, 'blocks.bin'), data);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const source = (opts: Parameters<typeof rangeFetch>[2] = {}, wholeFileLimit = 1 << 20) => {
  const host = rangeFetch(dir, BASE, opts);
  return { host, src: new RangeSource(BASE, { fetch: host.fetch, cache: new MemoryBlockCache(), wholeFileLimit }) };
};

describe('shared ranges', () => {
  it('joins blocks that lie end to end, the same block twice, and blocks of one group', () => {
    const items = [
      ref(0, 10),
      ref(10, 10),
      ref(30, 10),
      ref(30, 10),
      ref(100, 8, { group: 1 }),
      ref(124, 8, { group: 1 }),
    ];
    expect(sharedRanges(items, [5, 2, 0, 3, 1, 4])).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
  });

  it('starts a new range past the size limit', () => {
    expect(sharedRanges([ref(0, 600), ref(600, 600)], [0, 1], 1000)).toEqual([[0], [1]]);
  });
});

describe('range source', () => {
  it('fetches neighbours in one range request, then serves them from the cache', async () => {
    const { host, src } = source();
    const first = noStats();
    const got = await src.blocks('blocks.bin', [ref(0, 100), ref(100, 50), ref(2000, 10)], first);
    expect(got.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(host.requests.map((r) => r.range)).toEqual(['bytes=0-149', 'bytes=2000-2009']);
    expect(first).toEqual({ requests: 2, bytes: 160, cacheHits: 0 });
    const again = noStats();
    await src.blocks('blocks.bin', [ref(0, 100), ref(100, 50)], again);
    expect(again).toEqual({ requests: 0, bytes: 0, cacheHits: 2 });
    expect(host.requests).toHaveLength(2);
  });

  it('refuses a corrupt block by name and keeps its neighbour from the same request', async () => {
    const { src } = source();
    const bad = { ...ref(0, 100), hash: '00'.repeat(8), skipped: 'its lists were skipped' };
    const [r0, r1] = await src.blocks('blocks.bin', [bad, ref(100, 50)], noStats());
    expect(r0).toMatchObject({
      status: 'rejected',
      reason: {
        kind: 'corrupt',
        message:
          'block at 0 of blocks.bin is corrupt (its SHA-256 does not match the one it was written with); its lists were skipped',
      },
    });
    expect(r1!.status).toBe('fulfilled');
  });

  it('says which block could not be fetched, and why', async () => {
    const { src } = source({ failWhen: () => true });
    const [r] = await src.blocks('blocks.bin', [ref(0, 10)], noStats());
    expect(r!.status).toBe('rejected');
    const e = (r as PromiseRejectedResult).reason as BlockError;
    expect(e).toBeInstanceOf(BlockError);
    expect(e.kind).toBe('unreachable');
    expect(e.message).toBe('block at 0 of blocks.bin could not be fetched (Failed to fetch)');
    expect(e.detail).toBe('Failed to fetch');
  });

  it('takes a small file whole from a server that ignores Range, and slices later blocks from it', async () => {
    const { host, src } = source({ ignoreRange: true });
    const stats = noStats();
    const b = await src.block('blocks.bin', ref(1000, 24), stats);
    expect([...b]).toEqual([...data.subarray(1000, 1024)]);
    await src.block('blocks.bin', ref(3000, 24), stats);
    expect(host.requests).toHaveLength(1);
    expect(stats).toMatchObject({ requests: 1, bytes: data.length });
  });

  it('refuses a large file from a server that ignores Range, naming the host', async () => {
    const { src } = source({ ignoreRange: true }, 100);
    await expect(src.block('blocks.bin', ref(0, 10), noStats())).rejects.toBeInstanceOf(RangeUnsupportedError);
    await expect(src.block('blocks.bin', ref(0, 10), noStats())).rejects.toThrow(
      /static\.example ignores HTTP Range requests/,
    );
  });
});
