// Reads a sharded static corpus (format.ts) by HTTP range requests. Start-up fetches the
// manifest and index.bin (top centroids, page hashes); a question fetches, in round 1, the
// sub-centroid blocks (1-bit codes) of the `ntop` nearest top centroids and the word-table
// pages of its terms; in round 2 the lists of the `nprobe` sub-centroids with the best
// asymmetric score (1-bit codes of the passages) and the
// word shards of its terms; ranks the lists' passages by their codes' asymmetric score
// (probe.ts, which the writer also runs to choose the depths); range-reads, in round 3, the
// int8 rows of the best `rescore` (rows of a list up to `gap` apart in one range) and scores
// them exactly (the rows between too); then, in round 4, fetches the texts of the passages
// it keeps. Every block is checked against its hash
// and cached (Cache Storage in the page, memory elsewhere), so a question asked again,
// or offline, is answered from what was already fetched. A block that is missing,
// corrupt or unreachable is reported by name and the answer comes from the rest.
import { asymmetricTable } from '../../core/compact-index';
import { fuse, single, type FusedHit, type FusionMethod, type SearchMode } from '../../core/fusion';
import { int8Codec } from '../../core/row-store';
import { normalise } from '../../core/vector-index';
import { idealScore, idf, scaledScore } from '../lexical/bm25';
import { tokenize } from '../lexical/tokenize';
import {
  checkManifest,
  codeBits,
  decodeCentroidBlock,
  decodeIndex,
  decodeListBlock,
  decodeRowRecord,
  decodeText,
  decodeWordShard,
  pointerKey,
  postingScore,
  rowRecordBytes,
  sha256Hex,
  SHARDED_MANIFEST,
  shardInPage,
  termShard,
  type CorpusIndex,
  type ListBlock,
  type ListRef,
  type ShardedManifest,
  type TextPointer,
  type TextRecord,
} from './format';
import type { BlockCache } from './block-cache';
import { MemoryBlockCache } from './block-cache';
import { asymmetricScore, rankTops, type ProbeDepth } from './probe';

/** Above this, a file from a server that ignores Range is not downloaded whole. */
export const WHOLE_FILE_LIMIT = 8 * 1024 * 1024;
/** Each list is read this deep before fusing, as in the in-tab index. */
const DEPTH = 50;
/**
 * Probe depth for a corpus whose writer did not measure one (manifest `probe`, written by
 * `npm run index` since it calibrates): 16 tops × 24 lists, rescoring 50, reached recall@10
 * 0.973 / 0.968 / 0.940 at 100k / 300k / 1M passages (bench/sharded.bench.ts). The tops a
 * question must read grow with the corpus, which is why the writer measures them.
 */
export const DEFAULT_NPROBE = 24;
/** Top centroids whose sub-centroid blocks are read when the manifest names no depth (see DEFAULT_NPROBE). */
export const DEFAULT_NTOP = 16;
/** Candidates whose int8 rows are fetched and scored exactly when the manifest names no depth. */
export const DEFAULT_RESCORE = 50;
/** Wanted rows this close (in rows) share a range request (measured: bench/sharded.bench.ts). */
export const DEFAULT_GAP = 4;
/** Blocks that lie end to end share one range request up to this many bytes. */
const SHARED_RANGE_LIMIT = 1 << 20;

interface BlockRef {
  offset: number;
  bytes: number;
  hash: string;
  /** How the block is named in a problem ("list 12"). */
  what: string;
}

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
  /** Lists probed (default: the manifest's `probe`, else DEFAULT_NPROBE), the nearest sub-centroids of the `ntop` blocks read. */
  nprobe?: number;
  /** Top centroids whose sub-centroid blocks are read (default: the manifest's, else DEFAULT_NTOP). */
  ntop?: number;
  /** Candidates whose rows are fetched and scored exactly (default: the manifest's, else DEFAULT_RESCORE). */
  rescore?: number;
  /** Wanted rows at most this many rows apart share a range request (default DEFAULT_GAP). */
  gap?: number;
  mode?: SearchMode;
  fusion?: FusionMethod;
}

export interface ShardedOptions {
  fetch: typeof fetch;
  cache?: BlockCache;
  /** Largest file downloaded whole from a server that ignores Range (default WHOLE_FILE_LIMIT). */
  wholeFileLimit?: number;
}

type Probed = { c: number; ref: ListRef; block: ListBlock };
/** Row `i` of list `c`. */
type Candidate = { c: number; i: number };

export class ShardedCorpus {
  private whole = new Map<string, Promise<Uint8Array>>();
  private stats: ShardedStats = { requests: 0, bytes: 0, cacheHits: 0 };
  /** What opening took: manifest and index.bin. */
  readonly startup: ShardedStats;

  /** The start-up block: top centroids, the codes' centre and spread, and where every centroid block and word-table page lies. */
  index!: CorpusIndex;

  private constructor(
    private readonly base: string,
    readonly manifest: ShardedManifest,
    private readonly opts: Required<ShardedOptions>,
    startup: ShardedStats,
  ) {
    this.startup = startup;
    this.stats = startup;
  }

  /** What a question reads unless it says otherwise: the depth the writer measured, else the defaults. */
  get depth(): ProbeDepth {
    const p = this.manifest.probe;
    return { ntop: p?.ntop ?? DEFAULT_NTOP, nprobe: p?.nprobe ?? DEFAULT_NPROBE, rescore: p?.rescore ?? DEFAULT_RESCORE };
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
    const ix = manifest.index;
    corpus.index = decodeIndex(await corpus.block(ix.file, 0, ix.bytes, ix.sha256, 'the start-up block'), manifest);
    return corpus;
  }

  /** The `ntop` top centroids nearest the (unit) query. */
  nearestTops(q: Float32Array, ntop: number): number[] {
    const { centroids, subs } = this.index.tops;
    return rankTops(q, centroids, subs.length, this.manifest.dim).slice(0, ntop);
  }

  /**
   * The `nprobe` lists nearest the (unit) query among the sub-centroids of its `ntop` nearest
   * tops, with the problems of the centroid blocks that could not be read (their lists are left out).
   * Sub-centroids are 1-bit codes, ranked by the asymmetric score the lists' passages get.
   */
  async nearestLists(q: Float32Array, nprobe: number, ntop = this.depth.ntop): Promise<{ lists: ListRef[]; problems: string[] }> {
    const m = this.manifest;
    const { tops } = this.index;
    const problems: string[] = [];
    const scores: Array<[number, ListRef]> = [];
    const near = this.nearestTops(q, ntop);
    const fetched = await this.blocks(m.centroids.file, near.map((t) => ({ offset: tops.offset[t]!, bytes: tops.bytes[t]!, hash: tops.sha[t]!, what: `centroid block ${t}` })));
    const blocks = fetched.map((r, j): PromiseSettledResult<ReturnType<typeof decodeCentroidBlock>> => {
      if (r.status === 'rejected') return r;
      const t = near[j]!;
      try {
        return { status: 'fulfilled', value: decodeCentroidBlock(r.value, tops.subs[t]!, tops.firstList[t]!, m.dim) };
      } catch (e) {
        return { status: 'rejected', reason: new BlockError(`centroid block ${t} of ${m.centroids.file}: ${reason(e)}; its lists were skipped`) };
      }
    });
    const bits = codeBits(m.dim);
    const table = asymmetricTable(q, this.index.spread, m.dim, bits);
    for (const r of blocks) {
      if (r.status === 'rejected') {
        const why = reason(r.reason);
        problems.push(why.endsWith('it was skipped') ? why.replace(/it was skipped$/, 'its lists were skipped') : why);
        continue;
      }
      const { codes, lists } = r.value;
      lists.forEach((ref, j) => scores.push([asymmetricScore(table, codes, j, bits / 8), ref]));
    }
    scores.sort((a, b) => b[0] - a[0] || a[1].c - b[1].c);
    return { lists: scores.slice(0, nprobe).map(([, ref]) => ref), problems };
  }

  /** Where the question's word shards lie, from their word-table pages, with the problems of pages that could not be read. */
  private async shardRefs(shardIds: number[]): Promise<{ refs: Array<{ s: number; offset: number; bytes: number; sha: string }>; problems: string[] }> {
    const m = this.manifest;
    const { pages } = this.index;
    const size = m.words.page;
    const pageIds = [...new Set(shardIds.map((s) => Math.floor(s / size)))];
    const got = new Map<number, Uint8Array>();
    const problems: string[] = [];
    await Promise.all(
      pageIds.map(async (p) => {
        try {
          got.set(p, await this.block(m.words.table, pages.offset[p]!, pages.bytes[p]!, pages.sha[p]!, `word-table page ${p}`));
        } catch (e) {
          problems.push(reason(e).replace(/it was skipped$/, 'the words it indexes were skipped'));
        }
      }),
    );
    const refs: Array<{ s: number; offset: number; bytes: number; sha: string }> = [];
    for (const s of shardIds) {
      const page = got.get(Math.floor(s / size));
      if (page) refs.push({ s, ...shardInPage(page, s, size) });
    }
    return { refs, problems };
  }

  async search(query: ShardedQuery): Promise<ShardedAnswer> {
    this.stats = { requests: 0, bytes: 0, cacheHits: 0 };
    const problems: string[] = [];
    const mode = query.mode ?? (query.vector ? 'both' : 'words');
    const m = this.manifest;
    const q = query.vector && mode !== 'words' ? normalise(query.vector, m.dim) : null;
    const terms = mode === 'meaning' ? [] : [...new Set(tokenize(query.text))];
    const shardIds = [...new Set(terms.map((t) => termShard(t, m.words.count)))];

    const depth = this.depth;
    // Round 1: the probed tops' sub-centroid blocks and the terms' word-table pages together.
    const [near, shards] = await Promise.all([
      q ? this.nearestLists(q, query.nprobe ?? depth.nprobe, query.ntop ?? depth.ntop) : { lists: [], problems: [] },
      this.shardRefs(shardIds),
    ]);
    problems.push(...near.problems, ...shards.problems);

    // Round 2: lists and word shards together.
    const [listBlocks, wordBlocks] = await Promise.all([
      this.blocks(m.lists.file, near.lists.map((ref) => ({ offset: ref.offset, bytes: ref.bytes, hash: ref.sha, what: `list ${ref.c}` }))).then((got) =>
        got.map((r, j): PromiseSettledResult<Probed> => {
          if (r.status === 'rejected') return r;
          const ref = near.lists[j]!;
          try {
            return { status: 'fulfilled', value: { c: ref.c, ref, block: decodeListBlock(r.value, m.dim) } };
          } catch (e) {
            return { status: 'rejected', reason: new BlockError(`list ${ref.c} of ${m.lists.file}: ${reason(e)}; it was skipped`) };
          }
        }),
      ),
      Promise.allSettled(shards.refs.map((w) => this.block(m.words.file, w.offset, w.bytes, w.sha, `word shard ${w.s}`))),
    ]);
    const pointers = new Map<string, TextPointer>();
    const dense: Array<{ id: string; score: number }> = [];
    const probed: Probed[] = [];
    for (const r of listBlocks) {
      if (r.status === 'rejected') problems.push(reason(r.reason));
      else probed.push(r.value);
    }
    if (q && probed.length) {
      // Round 3: the rows of the best candidates by code, scored exactly.
      const best = this.bestByCode(q, probed, Math.max(query.rescore ?? depth.rescore, query.k));
      for (const { row, pointer } of await this.rows(best, probed, query.gap ?? DEFAULT_GAP, problems)) {
        const key = pointerKey(pointer);
        pointers.set(key, pointer);
        dense.push({ id: key, score: int8Codec.dot(q, row) });
      }
    }
    // Rows arrive in any order; ties break by id so an answer does not depend on network timing.
    dense.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    // Per passage: the sum of its terms' scores and how many question terms it holds (bm25.ts).
    const lexicalScores = new Map<string, { sum: number; matched: number }>();
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
            const s = lexicalScores.get(key) ?? { sum: 0, matched: 0 };
            s.sum += postingScore(weight, entry.df, m.words.passages, m.version);
            s.matched++;
            lexicalScores.set(key, s);
          }
        }
      } catch (e) {
        problems.push(reason(e));
      }
    });
    // On the in-tab word index's scale (bm25.ts), so the weighted fusion, and the merge with the
    // user's library, mean the same for both.
    const ideal = idealScore(terms.map((t) => idf(df.get(t) ?? 0, m.words.passages)));
    const lexical = [...lexicalScores].map(([id, s]) => ({ id, score: scaledScore(s.sum, s.matched, ideal) })).sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
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

    // Round 4: the texts of the passages kept.
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

  /**
   * The `m` best passages of the probed lists by their codes' asymmetric score. (The tab's compact
   * index first keeps the best 2,000 by Hamming distance, for a million rows; here the candidates
   * are a few thousand, and at 1M passages that cut lost true neighbours the score would keep.)
   */
  private bestByCode(q: Float32Array, probed: Probed[], m: number): Candidate[] {
    const { dim } = this.manifest;
    const bits = codeBits(dim);
    const cb = bits / 8;
    const table = asymmetricTable(q, this.index.spread, dim, bits);
    const all: Array<Candidate & { s: number }> = [];
    for (const { c, block } of probed) for (let i = 0; i < block.count; i++) all.push({ c, i, s: asymmetricScore(table, block.codes, i, cb) });
    return all.sort((a, b) => b.s - a.s || a.c - b.c || a.i - b.i).slice(0, m).map(({ c, i }) => ({ c, i }));
  }

  /**
   * Row records (int8 row + text pointer) from rows.bin: cached ones from the cache, the rest by
   * range requests in one parallel round. Wanted rows that lie within `gap` rows of each other
   * share a range (also across two probed lists that lie next to each other); the rows between come too and are scored as well. Each record is
   * checked against its hash from its list; one that does not match (wanted or between), or a
   * wanted one that does not come, is left out and counted in one line of `problems`.
   */
  private async rows(wanted: Candidate[], probed: Probed[], gap: number, problems: string[]): Promise<Array<{ row: Uint8Array; pointer: TextPointer }>> {
    const m = this.manifest;
    const rb = rowRecordBytes(m.dim);
    const url = new URL(m.rows.file, this.base).href;
    const blocks = new Map(probed.map((p) => [p.c, p.block]));
    const firstRow = new Map(probed.map((p) => [p.c, p.ref.firstRow]));
    const row = (w: Candidate) => firstRow.get(w.c)! + w.i;
    const key = (w: Candidate) => `${url}#bytes=${row(w) * rb}-${(row(w) + 1) * rb - 1}&sha=${blocks.get(w.c)!.rowHash(w.i)}`;
    // rows.bin holds the lists one after another, so a row's list is the probed one whose rows span it
    // (undefined for a row of a list not probed: its hash is not known here).
    const spans = probed.map((p) => ({ c: p.c, from: p.ref.firstRow, to: p.ref.firstRow + p.block.count })).sort((x, y) => x.from - y.from);
    const locate = (r: number): Candidate | undefined => {
      let lo = 0, hi = spans.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (spans[mid]!.to <= r) lo = mid + 1;
        else hi = mid;
      }
      const s = spans[lo];
      return s && s.from <= r ? { c: s.c, i: r - s.from } : undefined;
    };
    // Runs are made from every wanted row, cached or not, so a question asked again scores the same rows.
    // Wanted rows up to `gap` apart share a run, across the end of one probed list into the next too,
    // as long as every row between is a probed list's (and so can be checked).
    const sorted = wanted.map(row).sort((x, y) => x - y);
    const runs: Array<{ from: number; to: number }> = [];
    for (const r of sorted) {
      const last = runs[runs.length - 1];
      let joins = !!last && r - last.to - 1 <= gap;
      for (let b = last ? last.to + 1 : r; joins && b < r; b++) joins = !!locate(b);
      if (joins) last!.to = r;
      else runs.push({ from: r, to: r });
    }
    const wantedKeys = new Set(wanted.map((w) => `${w.c}:${w.i}`));
    const got: Array<{ row: Uint8Array; pointer: TextPointer }> = [];
    let corrupt = 0;
    const failed = new Map<string, number>();
    await Promise.all(
      runs.map(async ({ from, to }) => {
        const n = to - from + 1;
        const members = Array.from({ length: n }, (_, j) => locate(from + j)!);
        const cached = await Promise.all(members.map((w) => this.opts.cache.get(key(w))));
        if (cached.every((r) => r)) {
          this.stats.cacheHits += n;
          for (const r of cached) got.push(decodeRowRecord(r!, m.dim));
          return;
        }
        let body: Uint8Array;
        try {
          body = await this.range(url, from * rb, n * rb);
          if (body.length !== n * rb) throw new Error(`${body.length} bytes came, ${n * rb} were asked for`);
        } catch (e) {
          const why = e instanceof RangeUnsupportedError ? e.message : `could not be fetched (${reason(e)})`;
          failed.set(why, (failed.get(why) ?? 0) + members.filter((w) => wantedKeys.has(`${w.c}:${w.i}`)).length);
          return;
        }
        await Promise.all(
          members.map(async (w, j) => {
            const rec = body.slice(j * rb, (j + 1) * rb);
            if (!(await sha256Hex(rec)).startsWith(blocks.get(w.c)!.rowHash(w.i))) return void corrupt++;
            await this.opts.cache.put(key(w), rec);
            got.push(decodeRowRecord(rec, m.dim));
          }),
        );
      }),
    );
    for (const [why, n] of failed) problems.push(why.startsWith('could not') ? `${n} candidate rows of ${m.rows.file} ${why}; those passages were skipped` : why);
    if (corrupt) problems.push(`${corrupt} candidate row${corrupt === 1 ? '' : 's'} of ${m.rows.file} ${corrupt === 1 ? 'is' : 'are'} corrupt (SHA-256 does not match its list); ${corrupt === 1 ? 'that passage was' : 'those passages were'} skipped`);
    return got;
  }

  /** A block, from the cache or by a range request, checked against its hash (full SHA-256, or its first 16 hex digits). */
  private async block(file: string, offset: number, bytes: number, hash: string, what: string): Promise<Uint8Array> {
    const [r] = await this.blocks(file, [{ offset, bytes, hash, what }]);
    if (r!.status === 'rejected') throw r!.reason;
    return r!.value;
  }

  /**
   * Blocks of one file, each settling on its own: cached ones from the cache, the rest by range
   * requests in parallel, blocks that lie end to end in the file sharing one request (the top
   * blocks a question reads at 100k passages are most of the file, and the lists it probes are
   * often neighbours under one top). Each is checked against its own hash, so one bad block in a
   * shared range is refused by name and the others are kept.
   */
  private async blocks(file: string, items: BlockRef[]): Promise<Array<PromiseSettledResult<Uint8Array>>> {
    const url = new URL(file, this.base).href;
    // The expected hash is part of the key: after the site rebuilds its corpus, a block at the same
    // range of the same file is a different block, and the old one must not be served from the cache.
    const key = (b: BlockRef) => `${url}#bytes=${b.offset}-${b.offset + b.bytes - 1}&sha=${b.hash}`;
    const out: Array<PromiseSettledResult<Uint8Array>> = new Array(items.length);
    const missing: number[] = [];
    await Promise.all(
      items.map(async (b, i) => {
        const cached = await this.opts.cache.get(key(b));
        if (cached) {
          this.stats.cacheHits++;
          out[i] = { status: 'fulfilled', value: cached };
        } else missing.push(i);
      }),
    );
    missing.sort((x, y) => items[x]!.offset - items[y]!.offset || x - y);
    const runs: number[][] = [];
    for (const i of missing) {
      const b = items[i]!;
      const run = runs[runs.length - 1];
      const first = run && items[run[0]!]!;
      const last = run && items[run[run.length - 1]!]!;
      const follows = !!last && b.offset === last.offset + last.bytes && b.offset + b.bytes - first!.offset <= SHARED_RANGE_LIMIT;
      // The same block asked twice is fetched once.
      const again = !!last && b.offset === last.offset && b.bytes === last.bytes && b.hash === last.hash;
      if (follows || again) run!.push(i);
      else runs.push([i]);
    }
    await Promise.all(
      runs.map(async (run) => {
        const from = items[run[0]!]!.offset;
        const to = Math.max(...run.map((i) => items[i]!.offset + items[i]!.bytes));
        let body: Uint8Array;
        try {
          body = await this.range(url, from, to - from);
        } catch (e) {
          for (const i of run) out[i] = { status: 'rejected', reason: e instanceof RangeUnsupportedError ? e : new BlockError(`${items[i]!.what} of ${file} could not be fetched (${reason(e)})`) };
          return;
        }
        await Promise.all(
          run.map(async (i) => {
            const b = items[i]!;
            const part = body.slice(b.offset - from, b.offset - from + b.bytes);
            if (part.length !== b.bytes) return void (out[i] = { status: 'rejected', reason: new BlockError(`${b.what} of ${file} is ${part.length} bytes, the manifest says ${b.bytes} (is the file from another build?)`) });
            if (!(await sha256Hex(part)).startsWith(b.hash)) return void (out[i] = { status: 'rejected', reason: new BlockError(`${b.what} of ${file} is corrupt (its SHA-256 does not match the one it was written with); it was skipped`) });
            await this.opts.cache.put(key(b), part);
            out[i] = { status: 'fulfilled', value: part };
          }),
        );
      }),
    );
    return out;
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
