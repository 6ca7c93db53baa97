// The sharded static corpus: what `npm run index -- --sharded` writes and the page reads
// by HTTP range requests. This folder holds one file per thing read (as hyparquet keeps
// metadata, schema, column and page apart): this manifest, and the blocks of each file below. A few kB of manifest and one start-up block are fetched when the
// corpus opens; everything else is a block that a question fetches only when it needs it.
//
//   manifest.json   model, dims, counts, file names, and the size and SHA-256 of index.bin
//   index.bin       the start-up block: the codes' centre (float32; format 4–5 also their
//                   spread), the T top centroids (int8 rows) with each one's sub-centroid count
//                   and block hash, and the hash of each word-table page. It grows with T and
//                   n / (25 × page), not with the lists or the shards.
//   centroids.bin   one block per top centroid: its sub-centroids' codes (format 6: RaBitQ,
//                   src/vector/rabitq.ts, with a factor each; 4–5: signs of c − centre), and per
//                   sub-centroid (= list) its row count and hash; a question reads the blocks of
//                   the tops it probes
//   lists.bin       one block per sub-centroid: its passages' codes (as its sub-centroids'),
//                   their factors (format 6) and the hash of each row record
//   rows.bin        one record per passage, in list order: its int8 vector and text pointer;
//                   a question range-reads only the records of its best candidates by code
//   texts.bin       one deflated JSON passage per record, addressed by the pointers
//   wordtable.bin   the word-shard table in pages: each shard's size and hash
//   words.bin       the word index in hashed-term shards: for each term, the passages with
//                   the highest BM25+ term score (lexical/bm25.ts; impact-ordered, capped),
//                   with text pointers
//
// Integrity is a chain: the manifest holds the SHA-256 of index.bin; index.bin holds the
// first 16 bytes of the SHA-256 of every centroid block and word-table page; a centroid block
// those of its lists, a page those of its word shards; a list holds the first 8 bytes of each
// row record's, and a row record or a posting the first 8 of its text's. A block that does not
// match is refused with a message naming it.
import type { ProbeCalibration } from './probe-depth';

export const SHARDED_MANIFEST = 'manifest.json';
export const SHARDED_FORMAT = 'selfrag-sharded';
/**
 * 6: RaBitQ codes (src/vector/rabitq.ts: the residual from the centre, rotated, `codes.bits` bits a
 * dimension, and a float32 factor each) for passages and sub-centroids, where 4 and 5 kept signs
 * ranked by an asymmetric score over the spread (no spread in index.bin now). The rest as in 5.
 * 5: a posting's weight is its term's BM25+ score (lexical/bm25.ts, the in-tab index's), length
 * in distinct terms; version 4's was plain BM25 with lengths in all terms, times ln 4, and is
 * still read (`postingScore`), on nearly the same scale. The other blocks are as in 4.
 * 4: sub-centroids in the centroid blocks as 1-bit codes (68 B an entry at 384-d, was 408).
 * (3: int8 sub-centroids; two-level coarse structure (top centroids at start-up, sub-centroid
 * blocks by range) and a paged word-shard table. 2: all centroids and block tables in
 * index.bin; 1: int8 rows in the lists, tables in the manifest.)
 */
export const SHARDED_VERSION = 6;
/** The version a corpus of sign codes is written in (`codes: { kind: 'sign' }`, the benches' baseline). */
export const SIGN_CODES_VERSION = 5;
/** Versions this page reads: 4 and 5 with sign codes (their word weights' scale differs), 6 with RaBitQ codes. */
export const READABLE_VERSIONS: readonly number[] = [4, 5, 6];
export const INDEX_FILE = 'index.bin';
export const CENTROIDS_FILE = 'centroids.bin';
export const WORD_TABLE_FILE = 'wordtable.bin';
export const LISTS_FILE = 'lists.bin';
export const ROWS_FILE = 'rows.bin';
export const TEXTS_FILE = 'texts.bin';
export const WORDS_FILE = 'words.bin';
/** What a site runs to (re)build its corpus, named when a page meets one it cannot read. */
export const REBUILD_COMMAND = 'npm run index -- --sharded';

export interface ShardedManifest {
  format: typeof SHARDED_FORMAT;
  /** SHARDED_VERSION when written now; any of READABLE_VERSIONS is read. */
  version: number;
  /** Embedding model of the vectors; the page's query embedder must be the same. */
  model: string | null;
  dim: number;
  passages: number;
  documents: number;
  createdAt: string;
  codec: 'sign+int8' | 'rabitq+int8';
  /** Format 6: how passages (`bits` a dimension) and sub-centroids (`subBits`) are coded, and the rotation's seed. */
  codes?: { kind: 'rabitq'; bits: number; subBits: number; seed: number };
  /** The start-up block (layout: `encodeIndex`). */
  index: { file: string; bytes: number; sha256: string };
  /** Sub-centroid blocks, one per top centroid (layout: `encodeCentroidBlock`). */
  centroids: { file: string; tops: number };
  lists: { file: string; count: number };
  rows: { file: string };
  texts: { file: string; bytes: number };
  /** Shards lie in words.bin in shard order; their sizes and hashes are in `table`, in pages of `page` shards (layout: `encodeWordPage`). */
  words: {
    file: string;
    count: number;
    table: string;
    page: number;
    passages: number;
    avgLength: number;
    tokenizer: number;
  };
  /** The probe depth the writer measured on the corpus's own passages (optional: older builds have none, and the reader's defaults apply). */
  probe?: ProbeCalibration;
}

/** A corpus this page cannot read because it was written in another format version. */
export class FormatVersionError extends Error {
  constructor(readonly found: unknown) {
    super(
      `the site's sharded corpus is format version ${String(found)}, and this page reads version ${READABLE_VERSIONS.slice(0, -1).join(', ')} or ${READABLE_VERSIONS.at(-1)}: ` +
        `the site must rebuild it with \`${REBUILD_COMMAND}\` (or \`npm run index -- --parquet\`); until then its passages are left out`,
    );
  }
}

export function checkManifest(m: unknown): ShardedManifest {
  const v = m as Partial<ShardedManifest> | null;
  if (!v || v.format !== SHARDED_FORMAT)
    throw new Error(`not a sharded corpus manifest (format is not "${SHARDED_FORMAT}")`);
  if (!READABLE_VERSIONS.includes(v.version as number)) throw new FormatVersionError(v.version);
  if (!v.dim || !v.index || !v.lists || !v.rows || !v.words || !v.texts)
    throw new Error('sharded corpus manifest is missing fields');
  if (!v.centroids || !(v.centroids.tops >= 1) || !(v.words.page >= 1))
    throw new Error('sharded corpus manifest is missing fields');
  if (!(v.lists.count >= 1) || !(v.words.count >= 1))
    throw new Error('sharded corpus manifest: no lists or no word shards');
  const c = v.codes;
  const bits = (x: unknown) => Number.isInteger(x) && (x as number) >= 1 && (x as number) <= 8;
  if (
    (v.version as number) >= 6 &&
    !(c && c.kind === 'rabitq' && bits(c.bits) && bits(c.subBits) && Number.isInteger(c.seed))
  )
    throw new Error('sharded corpus manifest: format 6 without a valid `codes` (kind, bits, subBits, seed)');
  // A depth that is not whole numbers in range is dropped, not trusted: the defaults still answer.
  const p = v.probe;
  const whole = (x: unknown, max: number) => Number.isInteger(x) && (x as number) >= 1 && (x as number) <= max;
  if (
    p !== undefined &&
    !(p && whole(p.ntop, v.centroids.tops) && whole(p.nprobe, v.lists.count) && whole(p.rescore, 100000))
  )
    delete v.probe;
  return v as ShardedManifest;
}
