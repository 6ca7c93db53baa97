// Reads a sharded static corpus (format.ts) by HTTP range requests. Start-up fetches the
// manifest and the centroids; a question fetches, in one parallel round, the lists of
// the `nprobe` nearest centroids and the word shards of its terms, then, in a second
// round, the texts of the passages it keeps. Every block is checked against its hash
// and cached (Cache Storage in the page, memory elsewhere), so a question asked again,
// or offline, is answered from what was already fetched. A block that is missing,
// corrupt or unreachable is reported by name and the answer comes from the rest.
import { fuse, single, type FusedHit, type FusionMethod, type SearchMode } from '../../core/fusion';
import { int8Codec } from '../../core/row-store';
import { normalise } from '../../core/vector-index';
import { tokenize } from '../lexical/tokenize';
import {
  checkManifest,
  decodeListBlock,
  decodeText,
  decodeWordShard,
  idf,
  sha256Hex,
  SHARDED_MANIFEST,
  termShard,
  type ShardedManifest,
  type TextPointer,
  type TextRecord,
} from './format';
import type { BlockCache } from './block-cache';
import { MemoryBlockCache } from './block-cache';

/** Above this, a file from a server that ignores Range is not downloaded whole. */
export const WHOLE_FILE_LIMIT = 8 * 1024 * 1024;
/** Each list is read this deep before fusing, as in the in-tab index. */
const DEPTH = 50;

export class RangeUnsupportedError extends Error {
  constructor(readonly url: string, size: number) {
    super(
      `the server at ${new URL(url).host} ignores HTTP Range requests (it sent all of ${url.split('/').pop()}${Number.isFinite(size) ? `, ${size} bytes,` : ''} instead of the part asked for); ` +
        'host the sharded index where byte ranges are served (most static hosts and CDNs do), or build the single-file index instead',
    );
  }
}

export class BlockError extends Error {}

export interface ShardedStats {
  requests: number;
  bytes: number;
  cacheHits: number;
}

export interface ShardedHit extends FusedHit {
  passage: TextRecord;
}

export interface ShardedAnswer {
  hits: ShardedHit[];
  /** One line per block that could not be used; the hits come from the others. */
  problems: string[];
  /** This question's network use. */
  stats: ShardedStats;
}

export interface ShardedQuery {
  /** The question's embedding from the same model as the corpus; null for words only. */
  vector: Float32Array | null;
  text: string;
  k: number;
  /** Lists probed (default 8). */
  nprobe?: number;
  mode?: SearchMode;
  fusion?: FusionMethod;
}

export interface ShardedOptions {
  fetch: typeof fetch;
  cache?: BlockCache;
  /** Largest file downloaded whole from a server that ignores Range (default WHOLE_FILE_LIMIT). */
  wholeFileLimit?: number;
}

export class ShardedCorpus {
  private whole = new Map<string, Promise<Uint8Array>>();
  private stats: ShardedStats = { requests: 0, bytes: 0, cacheHits: 0 };
  /** What opening took: manifest and centroids. */
  readonly startup: ShardedStats;

  private centroids: Uint8Array = new Uint8Array(0);

  private constructor(
    private readonly base: string,
    readonly manifest: ShardedManifest,
    private readonly opts: Required<ShardedOptions>,
    startup: ShardedStats,
  ) {
    this.startup = startup;
    this.stats = startup;
  }

  /** `base` is the folder URL holding manifest.json (any sub-path works: files resolve against it). */
  static async open(base: string, options: ShardedOptions): Promise<ShardedCorpus> {
    const dir = base.endsWith('/') ? base : `${base}/`;
    const opts: Required<ShardedOptions> = { fetch: options.fetch, cache: options.cache ?? new MemoryBlockCache(), wholeFileLimit: options.wholeFileLimit ?? WHOLE_FILE_LIMIT };
    const stats: ShardedStats = { requests: 0, bytes: 0, cacheHits: 0 };
    const manifestUrl = new URL(SHARDED_MANIFEST, dir).href;
    let raw: Uint8Array | undefined;
    try {
      const res = await opts.fetch(manifestUrl, { cache: 'no-cache' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      raw = new Uint8Array(await res.arrayBuffer());
      stats.requests++;
      stats.bytes += raw.length;
      await opts.cache.put(manifestUrl, raw);
    } catch (e) {
      // Offline (or the host is down): the manifest seen last time still names the cached blocks.
      raw = await opts.cache.get(manifestUrl);
      if (!raw) throw new Error(`sharded corpus: cannot load ${manifestUrl} (${e instanceof Error ? e.message : String(e)})`);
      stats.cacheHits++;
    }
    const manifest = checkManifest(JSON.parse(new TextDecoder().decode(raw)));
    const corpus = new ShardedCorpus(dir, manifest, opts, stats);
    const c = manifest.centroids;
    corpus.centroids = await corpus.block(c.file, c.offset, c.bytes, c.sha256, 'centroids');
    return corpus;
  }

  /** The `nprobe` lists whose centroids are nearest the (unit) query. */
  nearestLists(q: Float32Array, nprobe: number): number[] {
    const { dim } = this.manifest;
    const rowBytes = int8Codec.rowBytes(dim);
    const count = this.manifest.centroids.count;
    const scores: Array<[number, number]> = [];
    for (let c = 0; c < count; c++) scores.push([int8Codec.dot(q, this.centroids.subarray(c * rowBytes, (c + 1) * rowBytes)), c]);
    scores.sort((a, b) => b[0] - a[0]);
    return scores.slice(0, nprobe).map(([, c]) => c);
  }

  async search(query: ShardedQuery): Promise<ShardedAnswer> {
    this.stats = { requests: 0, bytes: 0, cacheHits: 0 };
    const problems: string[] = [];
    const mode = query.mode ?? (query.vector ? 'both' : 'words');
    const m = this.manifest;
    const q = query.vector && mode !== 'words' ? normalise(query.vector, m.dim) : null;
    const lists = q ? this.nearestLists(q, query.nprobe ?? 8) : [];
    const terms = mode === 'meaning' ? [] : [...new Set(tokenize(query.text))];
    const shardIds = [...new Set(terms.map((t) => termShard(t, m.words.offset.length)))];

    // Round 1: lists and word shards together.
    const [listBlocks, wordBlocks] = await Promise.all([
      Promise.allSettled(lists.map((c) => this.block(m.lists.file, m.lists.offset[c]!, m.lists.bytes[c]!, m.lists.sha256[c]!, `list ${c}`))),
      Promise.allSettled(shardIds.map((s) => this.block(m.words.file, m.words.offset[s]!, m.words.bytes[s]!, m.words.sha256[s]!, `word shard ${s}`))),
    ]);
    const pointers = new Map<string, TextPointer>();
    const dense: Array<{ id: string; score: number }> = [];
    listBlocks.forEach((r) => {
      if (r.status === 'rejected') return problems.push(reason(r.reason));
      try {
        const block = decodeListBlock(r.value, m.dim);
        block.pointers.forEach((p, i) => {
          const key = `${p.offset}`;
          pointers.set(key, p);
          dense.push({ id: key, score: int8Codec.dot(q!, block.rows.subarray(i * block.rowBytes, (i + 1) * block.rowBytes)) });
        });
      } catch (e) {
        problems.push(reason(e));
      }
    });
    dense.sort((a, b) => b.score - a.score);
    const lexicalScores = new Map<string, number>();
    const df = new Map<string, number>();
    wordBlocks.forEach((r) => {
      if (r.status === 'rejected') return problems.push(reason(r.reason));
      try {
        const shard = decodeWordShard(r.value);
        for (const t of terms) {
          const entry = shard[t];
          if (!entry) continue;
          df.set(t, entry.df);
          for (const [offset, bytes, hash, weight] of entry.p) {
            const key = `${offset}`;
            pointers.set(key, { offset, bytes, hash });
            lexicalScores.set(key, (lexicalScores.get(key) ?? 0) + weight / 1000);
          }
        }
      } catch (e) {
        problems.push(reason(e));
      }
    });
    // BM25 over the question's ideal score (every term once in a passage of average length), as the
    // in-tab word index scales it, so the weighted fusion means the same for both.
    const ideal = terms.reduce((s, t) => s + idf(df.get(t) ?? 0, m.words.passages), 0) || 1;
    const lexical = [...lexicalScores].map(([id, score]) => ({ id, score: Math.min(1, score / ideal) })).sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    // A passage found by words alone sits in a list that was not probed, so its cosine is unknown
    // here; it is taken as the weakest dense candidate's (the in-tab index reads the true one).
    const denseTop = dense.slice(0, DEPTH);
    const floor = denseTop.length ? denseTop[denseTop.length - 1]!.score : 0;
    const fused =
      mode === 'words'
        ? single(lexical, 'lexical', query.k)
        : mode === 'meaning'
          ? single(denseTop, 'dense', query.k)
          : fuse(lexical.slice(0, DEPTH), denseTop, { limit: query.k, denseScoreOf: () => floor, ...(query.fusion ? { method: query.fusion } : {}) });

    // Round 2: the texts of the passages kept.
    const texts = await Promise.allSettled(
      fused.map(async (h) => {
        const p = pointers.get(h.id)!;
        return { hit: h, passage: decodeText(await this.block(m.texts.file, p.offset, p.bytes, p.hash, `passage at ${p.offset}`)) };
      }),
    );
    const hits: ShardedHit[] = [];
    for (const r of texts) {
      if (r.status === 'rejected') problems.push(reason(r.reason));
      else hits.push({ ...r.value.hit, passage: r.value.passage });
    }
    return { hits, problems: [...new Set(problems)], stats: this.stats };
  }

  /** A block, from the cache or by a range request, checked against its hash (full SHA-256, or its first 16 hex digits). */
  private async block(file: string, offset: number, bytes: number, hash: string, what: string): Promise<Uint8Array> {
    const url = new URL(file, this.base).href;
    // The expected hash is part of the key: after the site rebuilds its corpus, a block at the same
    // range of the same file is a different block, and the old one must not be served from the cache.
    const key = `${url}#bytes=${offset}-${offset + bytes - 1}&sha=${hash}`;
    const cached = await this.opts.cache.get(key);
    if (cached) {
      this.stats.cacheHits++;
      return cached;
    }
    let body: Uint8Array;
    try {
      body = await this.range(url, offset, bytes);
    } catch (e) {
      if (e instanceof RangeUnsupportedError) throw e;
      throw new BlockError(`${what} of ${file} could not be fetched (${e instanceof Error ? e.message : String(e)})`);
    }
    if (body.length !== bytes) throw new BlockError(`${what} of ${file} is ${body.length} bytes, the manifest says ${bytes} (is the file from another build?)`);
    const digest = await sha256Hex(body);
    if (!digest.startsWith(hash)) throw new BlockError(`${what} of ${file} is corrupt (its SHA-256 does not match the manifest); it was skipped`);
    await this.opts.cache.put(key, body);
    return body;
  }

  private async range(url: string, offset: number, bytes: number): Promise<Uint8Array> {
    const whole = this.whole.get(url);
    if (whole) return (await whole).slice(offset, offset + bytes);
    const res = await this.opts.fetch(url, { headers: { Range: `bytes=${offset}-${offset + bytes - 1}` } });
    this.stats.requests++;
    if (res.status === 206) {
      const body = new Uint8Array(await res.arrayBuffer());
      this.stats.bytes += body.length;
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
      this.stats.bytes += b.byteLength;
      return new Uint8Array(b);
    });
    this.whole.set(url, all);
    all.catch(() => this.whole.delete(url));
    return (await all).slice(offset, offset + bytes);
  }
}

function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
