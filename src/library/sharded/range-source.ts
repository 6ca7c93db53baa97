// Where every block of a sharded corpus comes from: the cache, else an HTTP range request
// (or a slice of the whole file, where the server ignores Range and the file is small), each
// checked against its hash before it is used or cached. Blocks that lie end to end, or that the
// read plan put in one group, share one request; each is still checked and refused alone.
// What one question (or opening) cost is counted in the stats it passes in.
import type { BlockCache } from './block-cache';
import { sha256Hex } from './format/bytes';
import { errorMessage } from '../../core/errors';

/** Blocks that lie end to end share one range request up to this many bytes. */
export const SHARED_RANGE_LIMIT = 1 << 20;

/** One block to read: where it lies in its file and the hash it must have. */
export interface BlockRef {
  offset: number;
  bytes: number;
  /** Its SHA-256 (hex), or the first digits of it. */
  hash: string;
  /** How the block is named in a problem ("list 12"). */
  what: string;
  /** What the answer loses when it is refused (default "it was skipped"). */
  skipped?: string;
  /** Blocks of one group are fetched in one request when any is missing, cached ones between included. */
  group?: number;
}

export interface ShardedStats {
  requests: number;
  bytes: number;
  cacheHits: number;
}

export const noStats = (): ShardedStats => ({ requests: 0, bytes: 0, cacheHits: 0 });

export class RangeUnsupportedError extends Error {
  constructor(
    readonly url: string,
    size: number,
  ) {
    super(
      `the server at ${new URL(url).host} ignores HTTP Range requests (it sent all of ${url.split('/').pop()}${Number.isFinite(size) ? `, ${size} bytes,` : ''} instead of the part asked for); ` +
        'host the sharded index where byte ranges are served (most static hosts and CDNs do), or build the single-file index instead',
    );
  }
}

/** Why one block was refused: it could not be fetched, came at the wrong size, or does not match its hash. */
export class BlockError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'wrong-size' | 'corrupt' | 'malformed',
    message: string,
    /** The bare reason, for a caller that counts failures ("Failed to fetch"). */
    readonly detail = message,
  ) {
    super(message);
  }
}

/** The one cache key: the file, the range, and the hash, so a block of a rebuilt corpus is never served stale. */
export const blockKey = (url: string, b: Pick<BlockRef, 'offset' | 'bytes' | 'hash'>) =>
  `${url}#bytes=${b.offset}-${b.offset + b.bytes - 1}&sha=${b.hash}`;

/**
 * Which of `items` (indexes, sorted by offset) share a request: a block that starts where the run
 * ends (up to `limit` bytes a run), the same block asked twice, or a block of the run's group.
 */
export function sharedRanges(
  items: readonly BlockRef[],
  wanted: readonly number[],
  limit = SHARED_RANGE_LIMIT,
): number[][] {
  const order = [...wanted].sort((x, y) => items[x]!.offset - items[y]!.offset || x - y);
  const runs: number[][] = [];
  for (const i of order) {
    const b = items[i]!;
    const run = runs[runs.length - 1];
    const first = run && items[run[0]!]!;
    const last = run && items[run[run.length - 1]!]!;
    const follows = !!last && b.offset === last.offset + last.bytes && b.offset + b.bytes - first!.offset <= limit;
    const again = !!last && b.offset === last.offset && b.bytes === last.bytes && b.hash === last.hash;
    const grouped = !!last && b.group !== undefined && b.group === last.group;
    if (follows || again || grouped) run!.push(i);
    else runs.push([i]);
  }
  return runs;
}

export interface RangeSourceOptions {
  fetch: typeof fetch;
  cache: BlockCache;
  /** Largest file downloaded whole from a server that ignores Range. */
  wholeFileLimit: number;
}

export class RangeSource {
  /** Files a server sent whole (it ignores Range): later blocks are sliced from them. */
  private whole = new Map<string, Promise<Uint8Array>>();

  constructor(
    /** The folder URL the files resolve against. */
    private readonly base: string,
    private readonly opts: RangeSourceOptions,
  ) {}

  url(file: string): string {
    return new URL(file, this.base).href;
  }

  /** One block, or the reason it was refused. */
  async block(file: string, ref: BlockRef, stats: ShardedStats): Promise<Uint8Array> {
    const [r] = await this.blocks(file, [ref], stats);
    if (r!.status === 'rejected') throw r!.reason;
    return r!.value;
  }

  /** Blocks of one file, each settling on its own: cached ones from the cache, the rest by shared range requests in parallel. */
  async blocks(
    file: string,
    items: readonly BlockRef[],
    stats: ShardedStats,
  ): Promise<Array<PromiseSettledResult<Uint8Array>>> {
    const url = this.url(file);
    const out: Array<PromiseSettledResult<Uint8Array>> = new Array(items.length);
    const missing: number[] = [];
    await Promise.all(
      items.map(async (b, i) => {
        const cached = await this.opts.cache.get(blockKey(url, b));
        if (cached) {
          stats.cacheHits++;
          out[i] = { status: 'fulfilled', value: cached };
        } else missing.push(i);
      }),
    );
    await Promise.all(
      sharedRanges(items, missing).map(async (run) => {
        const from = items[run[0]!]!.offset;
        const to = Math.max(...run.map((i) => items[i]!.offset + items[i]!.bytes));
        let body: Uint8Array;
        try {
          body = await this.range(url, from, to - from, stats);
        } catch (e) {
          for (const i of run)
            out[i] = {
              status: 'rejected',
              reason:
                e instanceof RangeUnsupportedError
                  ? e
                  : new BlockError(
                      'unreachable',
                      `${items[i]!.what} of ${file} could not be fetched (${errorMessage(e)})`,
                      errorMessage(e),
                    ),
            };
          return;
        }
        await Promise.all(
          run.map(
            async (i) =>
              (out[i] = await this.checked(
                url,
                file,
                items[i]!,
                body.slice(items[i]!.offset - from, items[i]!.offset - from + items[i]!.bytes),
              )),
          ),
        );
      }),
    );
    return out;
  }

  private async checked(
    url: string,
    file: string,
    b: BlockRef,
    part: Uint8Array,
  ): Promise<PromiseSettledResult<Uint8Array>> {
    if (part.length !== b.bytes) {
      const detail = `${part.length} bytes came, ${b.bytes} were asked for`;
      return {
        status: 'rejected',
        reason: new BlockError(
          'wrong-size',
          `${b.what} of ${file} is ${part.length} bytes, the manifest says ${b.bytes} (is the file from another build?)`,
          detail,
        ),
      };
    }
    if (!(await sha256Hex(part)).startsWith(b.hash)) {
      return {
        status: 'rejected',
        reason: new BlockError(
          'corrupt',
          `${b.what} of ${file} is corrupt (its SHA-256 does not match the one it was written with); ${b.skipped ?? 'it was skipped'}`,
        ),
      };
    }
    await this.opts.cache.put(blockKey(url, b), part);
    return { status: 'fulfilled', value: part };
  }

  private async range(url: string, offset: number, bytes: number, stats: ShardedStats): Promise<Uint8Array> {
    const whole = this.whole.get(url);
    if (whole) return (await whole).slice(offset, offset + bytes);
    const res = await this.opts.fetch(url, { headers: { Range: `bytes=${offset}-${offset + bytes - 1}` } });
    stats.requests++;
    if (res.status === 206) {
      const body = new Uint8Array(await res.arrayBuffer());
      stats.bytes += body.length;
      return body;
    }
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    // The server ignored Range and is sending the whole file: fine for a small file (kept, and sliced from then on), refused for a big one.
    const size = Number(res.headers.get('content-length') ?? NaN);
    const already = this.whole.get(url);
    if (already) {
      // A request sent in the same round got the whole file first.
      await res.body?.cancel().catch(() => undefined);
      return (await already).slice(offset, offset + bytes);
    }
    if (!(size <= this.opts.wholeFileLimit)) {
      await res.body?.cancel().catch(() => undefined);
      throw new RangeUnsupportedError(url, size);
    }
    const all = res.arrayBuffer().then((b) => {
      stats.bytes += b.byteLength;
      return new Uint8Array(b);
    });
    this.whole.set(url, all);
    all.catch(() => this.whole.delete(url));
    return (await all).slice(offset, offset + bytes);
  }
}
