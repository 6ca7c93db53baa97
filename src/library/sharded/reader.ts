// Reads a sharded static corpus (format/) by HTTP range requests, as plan → fetch → search:
// read-plan.ts says which blocks a round needs, range-source.ts fetches them (cache, range
// requests shared by neighbours, whole-file fallback, hash checks), search.ts ranks what they
// hold. Start-up fetches the manifest and index.bin (top centroids, page hashes); a question
// then reads, in round 1, the sub-centroid blocks (1-bit codes) of the `ntop` nearest top
// centroids and the word-table pages of its terms; in round 2 the lists of the `nprobe`
// sub-centroids with the best asymmetric score and the word shards of its terms; in round 3
// the int8 rows of its best `rescore` candidates by code (rows of a list up to `gap` apart in
// one range), scored exactly (the rows between too); in round 4 the texts of the passages it
// keeps. Every block is checked against its hash and cached (Cache Storage in the page, memory
// elsewhere), so a question asked again, or offline, is answered from what was already
// fetched. A block that is missing, corrupt or unreachable is reported by name and the answer
// comes from the rest.
import type { FusedHit, FusionMethod, SearchMode } from '../../core/fusion';
import { normalise } from '../../vector/vector-index';
import { tokenize } from '../lexical/tokenize';
import { decodeCentroidBlock, type CentroidBlock, type ListRef } from './format/centroids';
import { codeShapes } from './format/codes';
import { decodeIndex, type CorpusIndex } from './format/index-block';
import { decodeListBlock, type ListBlock } from './format/lists';
import { checkManifest, SHARDED_MANIFEST, type ShardedManifest } from './format/manifest';
import { decodeRowRecord, pointerKey, rowRecordBytes, type TextPointer } from './format/rows';
import { decodeText, type TextRecord } from './format/texts';
import { decodeWordShard, type WordShard } from './format/words';
import type { BlockCache } from './block-cache';
import { MemoryBlockCache } from './block-cache';
import type { ProbeDepth } from './format/probe-depth';
import { type CodeBasis, codeBasis, scorersFor } from './probe';
import { BlockError, noStats, RangeSource, RangeUnsupportedError, type ShardedStats } from './range-source';
import * as plan from './read-plan';
import * as rank from './search';
import { errorMessage } from '../../core/errors';

export { BlockError, RangeUnsupportedError, type ShardedStats } from './range-source';

/** Above this, a file from a server that ignores Range is not downloaded whole. */
export const WHOLE_FILE_LIMIT = 8 * 1024 * 1024;
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

/** The settled blocks' values, each decoded; a block that did not come or does not decode adds its problem. */
function decodeAll<T>(
  file: string,
  refs: ReadonlyArray<{ what: string; skipped?: string }>,
  got: ReadonlyArray<PromiseSettledResult<Uint8Array>>,
  decode: (bytes: Uint8Array, j: number) => T,
  problems: string[],
): Array<T | undefined> {
  return got.map((r, j) => {
    if (r.status === 'rejected') return void problems.push(errorMessage(r.reason));
    try {
      return decode(r.value, j);
    } catch (e) {
      problems.push(`${refs[j]!.what} of ${file}: ${errorMessage(e)}; ${refs[j]!.skipped ?? 'it was skipped'}`);
      return undefined;
    }
  });
}

const present = <T>(xs: ReadonlyArray<T | undefined>): T[] => xs.filter((x): x is T => x !== undefined);

export class ShardedCorpus {
  private constructor(
    private readonly source: RangeSource,
    readonly manifest: ShardedManifest,
    /** The start-up block: top centroids, the codes' centre (and spread), and where every centroid block and word-table page lies. */
    readonly index: CorpusIndex,
    /** What opening took: manifest and index.bin. */
    readonly startup: ShardedStats,
  ) {
    this.shapes = codeShapes(manifest);
    this.basis = codeBasis(manifest.dim, this.shapes, index.centre, index.spread, manifest.codes?.seed ?? null);
  }

  /** How list entries and sub-centroids are coded (format 6: RaBitQ; 4–5: signs). */
  readonly shapes: ReturnType<typeof codeShapes>;
  /** What a question's scores of those codes are taken against. */
  readonly basis: CodeBasis;

  /** What a question reads unless it says otherwise: the depth the writer measured, else the defaults. */
  get depth(): ProbeDepth {
    const p = this.manifest.probe;
    return {
      ntop: p?.ntop ?? DEFAULT_NTOP,
      nprobe: p?.nprobe ?? DEFAULT_NPROBE,
      rescore: p?.rescore ?? DEFAULT_RESCORE,
    };
  }

  /** `base` is the folder URL holding manifest.json (any sub-path works: files resolve against it). */
  static async open(base: string, options: ShardedOptions): Promise<ShardedCorpus> {
    const dir = base.endsWith('/') ? base : `${base}/`;
    const cache = options.cache ?? new MemoryBlockCache();
    const source = new RangeSource(dir, {
      fetch: options.fetch,
      cache,
      wholeFileLimit: options.wholeFileLimit ?? WHOLE_FILE_LIMIT,
    });
    const stats = noStats();
    const manifestUrl = source.url(SHARDED_MANIFEST);
    let raw: Uint8Array | undefined;
    try {
      const res = await options.fetch(manifestUrl, { cache: 'no-cache' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      raw = new Uint8Array(await res.arrayBuffer());
      stats.requests++;
      stats.bytes += raw.length;
      await cache.put(manifestUrl, raw);
    } catch (e) {
      // Offline (or the host is down): the manifest seen last time still names the cached blocks.
      raw = await cache.get(manifestUrl);
      if (!raw) throw new Error(`sharded corpus: cannot load ${manifestUrl} (${errorMessage(e)})`);
      stats.cacheHits++;
    }
    const manifest = checkManifest(JSON.parse(new TextDecoder().decode(raw)));
    const ix = manifest.index;
    const index = decodeIndex(
      await source.block(ix.file, { offset: 0, bytes: ix.bytes, hash: ix.sha256, what: 'the start-up block' }, stats),
      manifest,
    );
    return new ShardedCorpus(source, manifest, index, stats);
  }

  /** The `ntop` top centroids nearest the (unit) query. */
  nearestTops(q: Float32Array, ntop: number): number[] {
    return rank.nearestTops(q, this.index, this.manifest.dim, ntop);
  }

  /**
   * The `nprobe` lists nearest the (unit) query among the sub-centroids of its `ntop` nearest
   * tops, with the problems of the centroid blocks that could not be read (their lists are left out).
   */
  async nearestLists(
    q: Float32Array,
    nprobe: number,
    ntop = this.depth.ntop,
    stats = noStats(),
    scores = scorersFor(q, this.basis),
  ): Promise<{ lists: ListRef[]; problems: string[] }> {
    const m = this.manifest;
    const tops = this.nearestTops(q, ntop);
    const refs = plan.topBlocks(this.index, tops);
    const problems: string[] = [];
    const got = await this.source.blocks(m.centroids.file, refs, stats);
    const blocks = decodeAll<CentroidBlock>(
      m.centroids.file,
      refs,
      got,
      (b, j) =>
        decodeCentroidBlock(b, this.index.tops.subs[tops[j]!]!, this.index.tops.firstList[tops[j]!]!, this.shapes),
      problems,
    );
    return { lists: rank.nearestLists(scores.sub, present(blocks), nprobe), problems };
  }

  async search(query: ShardedQuery): Promise<ShardedAnswer> {
    const stats = noStats();
    const problems: string[] = [];
    const m = this.manifest;
    const mode = query.mode ?? (query.vector ? 'both' : 'words');
    const q = query.vector && mode !== 'words' ? normalise(query.vector, m.dim) : null;
    const terms = mode === 'meaning' ? [] : [...new Set(tokenize(query.text))];
    const depth = this.depth;
    const scores = q ? scorersFor(q, this.basis) : null;

    // Round 1: the probed tops' sub-centroid blocks and the terms' word-table pages together.
    const pagePlan = plan.wordPages(m, this.index, terms);
    const [near, pages] = await Promise.all([
      q
        ? this.nearestLists(q, query.nprobe ?? depth.nprobe, query.ntop ?? depth.ntop, stats, scores!)
        : { lists: [], problems: [] },
      this.source.blocks(m.words.table, pagePlan.refs, stats),
    ]);
    problems.push(...near.problems);
    const pageBytes = new Map<number, Uint8Array>();
    pages.forEach((r, j) =>
      r.status === 'fulfilled' ? pageBytes.set(pagePlan.pages[j]!, r.value) : problems.push(errorMessage(r.reason)),
    );

    // Round 2: lists and word shards together.
    const listRefs = plan.listBlocks(near.lists);
    const shardRefs = plan.wordShards(pagePlan.shards, pageBytes, m.words.page);
    const [listGot, shardGot] = await Promise.all([
      this.source.blocks(m.lists.file, listRefs, stats),
      this.source.blocks(m.words.file, shardRefs, stats),
    ]);
    const probed = present(
      decodeAll<Probed>(
        m.lists.file,
        listRefs,
        listGot,
        (b, j) => ({ c: near.lists[j]!.c, ref: near.lists[j]!, block: decodeListBlock(b, this.shapes.list) }),
        problems,
      ),
    );
    const shards = present(
      decodeAll<WordShard>(m.words.file, shardRefs, shardGot, (b) => decodeWordShard(b), problems),
    );

    // Round 3: the rows of the best candidates by code, scored exactly.
    const rows =
      q && probed.length
        ? await this.rows(
            rank.bestByCode(scores!.list, probed, Math.max(query.rescore ?? depth.rescore, query.k)),
            probed,
            query.gap ?? DEFAULT_GAP,
            stats,
            problems,
          )
        : [];
    const dense = q ? rank.denseScores(q, rows) : [];
    const words = rank.wordScores(terms, shards, m);
    const pointers = new Map<string, TextPointer>([
      ...words.pointers,
      ...rows.map((r) => [pointerKey(r.pointer), r.pointer] as const),
    ]);
    const fused = rank.fuseScores(mode, words.scores, dense, query.k, query.fusion);

    // Round 4: the texts of the passages kept.
    const textRefs = plan.textBlocks(fused.map((h) => pointers.get(h.id)!));
    const texts = await this.source.blocks(m.texts.file, textRefs, stats);
    const hits: ShardedHit[] = [];
    texts.forEach((r, j) => {
      if (r.status === 'rejected') return void problems.push(errorMessage(r.reason));
      try {
        hits.push({ ...fused[j]!, passage: decodeText(r.value) });
      } catch (e) {
        problems.push(errorMessage(e));
      }
    });
    return { hits, problems: [...new Set(problems)], stats };
  }

  /**
   * Row records (int8 row + text pointer) of the wanted candidates, and of the rows between those
   * that share a range (read-plan.ts `rowBlocks`). A record that does not match its hash from its
   * list, or a wanted one that does not come, is left out and counted in one line of `problems`.
   */
  private async rows(
    wanted: plan.Candidate[],
    probed: Probed[],
    gap: number,
    stats: ShardedStats,
    problems: string[],
  ): Promise<Array<{ row: Uint8Array; pointer: TextPointer }>> {
    const m = this.manifest;
    const read = plan.rowBlocks(
      wanted,
      probed.map((p) => ({
        c: p.c,
        firstRow: p.ref.firstRow,
        count: p.block.count,
        rowHash: (i) => p.block.rowHash(i),
      })),
      gap,
      rowRecordBytes(m.dim),
    );
    const got = await this.source.blocks(m.rows.file, read.refs, stats);
    const out: Array<{ row: Uint8Array; pointer: TextPointer }> = [];
    let corrupt = 0;
    const failed = new Map<string, number>();
    got.forEach((r, j) => {
      if (r.status === 'fulfilled') return void out.push(decodeRowRecord(r.value, m.dim));
      const e = r.reason as unknown;
      if (e instanceof BlockError && e.kind === 'corrupt') return void corrupt++;
      if (!read.wanted[j]) return;
      const why =
        e instanceof RangeUnsupportedError
          ? e.message
          : `could not be fetched (${e instanceof BlockError ? e.detail : errorMessage(e)})`;
      failed.set(why, (failed.get(why) ?? 0) + 1);
    });
    for (const [why, n] of failed)
      problems.push(
        why.startsWith('could not') ? `${n} candidate rows of ${m.rows.file} ${why}; those passages were skipped` : why,
      );
    if (corrupt)
      problems.push(
        `${corrupt} candidate row${corrupt === 1 ? '' : 's'} of ${m.rows.file} ${corrupt === 1 ? 'is' : 'are'} corrupt (SHA-256 does not match its list); ${corrupt === 1 ? 'that passage was' : 'those passages were'} skipped`,
      );
    return out;
  }
}
