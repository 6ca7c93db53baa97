// The sharded writer's options, its result, the sizes it chooses and the small helpers every
// stage shares (unit vectors, record shapes, hashes). The stages are one a file: survey.ts
// (pass 1), train.ts, assign.ts (pass 2), lists.ts, words.ts, centroids.ts, calibrate.ts;
// write-sharded.ts runs them in order.
import type { PassageSource } from '../../src/core/source-location';
import { createHash } from 'node:crypto';
import type { CodeShape } from '../../src/library/sharded/format/codes';
import { rowRecordBytes } from '../../src/library/sharded/format/rows';
import { int8Codec } from '../../src/vector/row-store';
import { vectorNorm } from '../../src/vector/vector-index';
import type { CalibrationResult } from './calibrate';
import { errorMessage } from '../../src/core/errors';

export interface ShardedRow {
  id: string;
  docId: string;
  title: string;
  text: string;
  index: number;
  /** Its place in the document and the original's address on the site, when known. */
  source?: PassageSource;
  embedding: Float32Array;
  /** The list this passage belongs to, as computed elsewhere (a row of `centroids`); then the writer assigns nothing. */
  list?: number;
}

/** Iterated twice (sample, then assign): each call starts from the first row. */
export interface ShardedSource {
  rows(): AsyncIterable<ShardedRow>;
  /** Rows it holds, when known up front: the sample is then sized exactly instead of to its memory cap. */
  rowCount?: number;
}

/** List centroids computed elsewhere (e.g. faiss k-means in the embedding job). */
export interface GivenCentroids {
  /** `L × dim`; rows need not be unit length. */
  vectors: Float32Array;
  dim: number;
  /** Each list's top group (any whole numbers); else the writer groups them by a k-means over the centroids. */
  top?: Int32Array;
  /** Named in messages (the file they came from). */
  source: string;
}

export interface WriteShardedOptions {
  out: string;
  source: ShardedSource;
  model: string | null;
  /** IVF lists (= sub-centroids; default n / LIST_SIZE, so a list's bytes stay the same at any corpus size). */
  lists?: number;
  /** Top centroids (default 2√lists: start-up holds T int8 centroids, a question reads ntop × lists / T 1-bit sub-centroids, 6× smaller at 384-d; the bytes are equal at ntop 24; at most `lists`). */
  tops?: number;
  /** Precomputed list centroids: no training; passages with a `list` are not assigned either. */
  centroids?: GivenCentroids;
  /** Train one flat k-means and compare each passage with every list (default: when lists ≤ FLAT_MAX_LISTS). */
  flat?: boolean;
  /** Hierarchical assignment: a passage goes to the nearest list among its this many nearest tops' (default ASSIGN_TOPS). */
  assignTops?: number;
  /** Word shards (default n / 25: about 20–50 kB a shard, one per query term). */
  wordShards?: number;
  /** Word-table entries per page (default WORD_PAGE). */
  wordPage?: number;
  /** Bytes of postings a temporary word bucket may hold, as estimated from pass 1's text (default WORD_BUCKET_BYTES). */
  wordBucketBytes?: number;
  /** Rows kept to train the centroids (default: flat 32 a list ≤ 50,000; hierarchical 32 a list ≤ sampleBytes). */
  sample?: number;
  /** Memory cap of the training sample (float32 rows; default SAMPLE_BYTES). */
  sampleBytes?: number;
  iterations?: number;
  /** Passages taken as questions to choose the probe depth written in the manifest (default CALIBRATION_QUERIES; 0: none, the reader's defaults apply). */
  calibrate?: number;
  /**
   * Questions to choose the depth on instead of passages: unit vectors (the corpus's dimension,
   * end to end) embedded as the page embeds questions. A passage taken as a question sits among
   * its own document's passages; a short question does not: at 100k real passages the passages'
   * estimate was 0.961 where held-out questions got 0.731 (docs/benchmarks-real.md).
   */
  questions?: Float32Array;
  /**
   * How passages and sub-centroids are coded: RaBitQ with `bits` (passages) and `subBits`
   * (sub-centroids) a dimension (format 6; default DEFAULT_CODES), or signs (format 5, as
   * written before RaBitQ; the benches' baseline).
   */
  codes?: CodeChoice;
  /**
   * Embeds texts as the page embeds questions. Without `questions`, the writer then calibrates on
   * pseudo-questions (pseudo-questions.ts: first sentences of sampled passages, their own document
   * left out); without either, on held-out passages, which promise too much for real questions.
   */
  embedQuestions?: (texts: string[]) => Promise<Float32Array[]>;
  /** Recall@10 that depth must reach on them (default TARGET_RECALL). */
  targetRecall?: number;
  log?: (line: string) => void;
}

export type CodeChoice = { kind: 'sign' } | { kind: 'rabitq'; bits: number; subBits: number };

export interface WriteShardedResult {
  passages: number;
  tops: number;
  lists: number;
  wordShards: number;
  /** How the lists were made: 'flat' or 'hierarchical' training, 'given' centroids, or 'given lists' (the source's `list`). */
  coarse: 'flat' | 'hierarchical' | 'given' | 'given lists';
  /** Rows the centroids were trained on. */
  sampleRows: number;
  wordBuckets: number;
  /** The largest temporary word bucket, bytes (the most a bucket pass holds in memory as text). */
  largestBucket: number;
  /** Seconds: pass 1 (count, sample), training, pass 2 (assign, spill), lay out lists and rows, words. */
  seconds: { sample: number; train: number; assign: number; lists: number; words: number; calibrate: number };
  /** The process's peak resident memory (bytes) at the end of each of those steps: which step set the peak. */
  peakRss: { sample: number; train: number; assign: number; lists: number; words: number };
  /** What the depth was calibrated on: questions given, pseudo-questions, or held-out passages. */
  calibratedOn: 'questions' | 'pseudo-questions' | 'passages' | null;
  /** The probe depth chosen (also in the manifest), and every depth tried; null when not calibrated. */
  calibration: CalibrationResult | null;
  files: string[];
  bytes: Record<string, number>;
}

/** Passages a list holds on average, by default: at 100k, 8 tops × 16 lists of ~128 reached recall@10 0.950 for 356 kB a question (bench/sharded.bench.ts); lists of ~256 cost twice the codes a list. */
export const LIST_SIZE = 128;
/** Word-table entries a page, by default: 2.5 kB a page; a page hash (16 B) per 128 shards at start-up. */
export const WORD_PAGE = 128;
/** Up to this many lists the writer trains one flat k-means and files each passage by a scan of all lists (see FLAT_MAX_LISTS_WHY). */
export const FLAT_MAX_LISTS = 4096;
/** Tops whose lists a passage is compared with, in the hierarchical path. */
export const ASSIGN_TOPS = 8;
/** Memory cap of the hierarchical training sample: 512 MiB of float32 rows (349,525 rows at 384-d, 174,762 at 768-d). */
export const SAMPLE_BYTES = 512 * 1024 * 1024;
/** Rows of sample a list, hierarchical path. */
const SAMPLE_PER_LIST = 32;
export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export function unit(v: Float32Array, dim: number, id: string): Float32Array {
  let norm: number;
  try {
    norm = vectorNorm(v, dim);
  } catch (e) {
    throw new Error(
      `passage ${id}: ${errorMessage(e)} (its embedding is ${v.length}-d${v.every((x) => x === 0) ? ' and all zeros' : ''})`,
    );
  }
  return Float32Array.from(v, (x) => x / norm);
}

export const clock = () => performance.now() / 1000;

/** How big the corpus's parts are, from the options and (once pass 1 has counted) the corpus size. */
export function sizing(opts: WriteShardedOptions) {
  const given = opts.centroids;
  const sampleBytes = opts.sampleBytes ?? SAMPLE_BYTES;
  // Lists wanted for n passages (LIST_SIZE a list unless given).
  const listsFor = (n: number) => Math.max(1, Math.min(opts.lists ?? Math.round(n / LIST_SIZE), n));
  // The sample each path trains on, from the corpus size (known up front or after pass 1).
  const sampleRows = (n: number, dim: number, flat: boolean) => {
    const lists = listsFor(n);
    if (opts.sample) return opts.sample;
    if (given) return 50000; // the codes' centre and spread only
    if (flat) return Math.min(50000, lists * 32);
    return Math.max(1, Math.min(lists * SAMPLE_PER_LIST, Math.floor(sampleBytes / (4 * dim))));
  };
  const isFlat = (n: number) => opts.flat ?? listsFor(n) <= FLAT_MAX_LISTS;
  return { given, sampleBytes, listsFor, sampleRows, isFlat };
}

/** Byte sizes of the records at this dimension, with list entries coded in `list`'s shape. */
export function shapeOf(dim: number, list: CodeShape) {
  const cb = list.bytes;
  const fb = list.factors ? 4 : 0;
  const rb = rowRecordBytes(dim);
  // A spilled record: u32 list, the code, its factor, the row record.
  return { dim, list, rowBytes: int8Codec.rowBytes(dim), cb, fb, rb, recordBytes: 4 + cb + fb + rb };
}
export type Shape = ReturnType<typeof shapeOf>;
