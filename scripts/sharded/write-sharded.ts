// Writes a sharded static corpus (src/library/sharded/format/) from a stream of embedded
// passages, in bounded memory, one stage a file:
//   survey.ts      pass 1: count, a reservoir sample, the held-out questions, the codes' centre
//   train.ts       the top centroids and their lists (coarse.ts: flat, hierarchical or given)
//   assign.ts      pass 2: each passage filed in its list; its text appended, its record and
//                  word postings spilled to temporary files
//   lists.ts       lists.bin and rows.bin laid out from the spilled records
//   words.ts       words.bin and wordtable.bin, one word bucket in memory at a time
//   centroids.ts   centroids.bin and index.bin
//   choose-depth.ts  the probe depth, by replaying the reader on the written blocks (calibrate.ts)
// then the manifest, last. Memory holds the sample, the centroids and one word bucket, never the corpus.
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CENTROIDS_FILE,
  INDEX_FILE,
  LISTS_FILE,
  ROWS_FILE,
  SHARDED_FORMAT,
  SHARDED_MANIFEST,
  SHARDED_VERSION,
  SIGN_CODES_VERSION,
  TEXTS_FILE,
  WORD_TABLE_FILE,
  WORDS_FILE,
  type ShardedManifest,
} from '../../src/library/sharded/format/manifest';
import { TOKENIZER_VERSION } from '../../src/library/lexical/tokenize';
import { assign } from './assign';
import { NeighbourTracker } from './calibrate';
import { writeCentroids } from './centroids';
import { calibrateDepth } from './choose-depth';
import { layOutLists } from './lists';
import { clock, sha256, shapeOf, WORD_PAGE, type WriteShardedOptions, type WriteShardedResult } from './options';
import { survey } from './survey';
import { train } from './train';
import { writeWords } from './words';

export {
  ASSIGN_TOPS,
  FLAT_MAX_LISTS,
  LIST_SIZE,
  SAMPLE_BYTES,
  WORD_PAGE,
  type CodeChoice,
  type GivenCentroids,
  type ShardedRow,
  type ShardedSource,
  type WriteShardedOptions,
  type WriteShardedResult,
} from './options';
export { WORD_BUCKET_BYTES } from './assign';
export { DEFAULT_CODES } from './coder';

/**
 * Writes the corpus in its steps: survey (pass 1), train, assign (pass 2), lay out the lists and
 * rows, write the words, write the centroid blocks and index.bin, calibrate the probe depth, and
 * last the manifest, so a reader never finds a manifest naming blocks that are not there yet.
 */
export async function writeSharded(opts: WriteShardedOptions): Promise<WriteShardedResult> {
  const log = opts.log ?? (() => undefined);
  const out = resolve(opts.out);
  mkdirSync(out, { recursive: true });
  const tmp = join(out, '.sharded-tmp');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  try {
    const seconds = { sample: 0, train: 0, assign: 0, lists: 0, words: 0, calibrate: 0 };
    const peakRss = { ...seconds };
    const peak = () => process.resourceUsage().maxRSS * 1024;
    let t0 = clock();
    const step = (name: keyof typeof peakRss & keyof typeof seconds) => {
      seconds[name] = clock() - t0;
      peakRss[name] = peak();
      t0 = clock();
    };
    const s = await survey(opts);
    step('sample');
    const { n, dim } = s;
    const wordShards = Math.max(1, opts.wordShards ?? Math.ceil(n / 25));
    const wordPage = Math.max(1, opts.wordPage ?? WORD_PAGE);
    const t = train(opts, s, log);
    const Q = s.questions.length / dim;
    const tracker =
      Q > 0
        ? new NeighbourTracker(
            s.questions,
            dim,
            s.coder.basis,
            s.questionPlaces,
            s.questionKind === 'pseudo-questions' ? 'document' : 'beside',
          )
        : null;
    step('train');
    const a = await assign(opts, out, tmp, s, t, wordShards, tracker, log);
    step('assign');
    const layout = layOutLists(out, tmp, shapeOf(dim, s.coder.shapes.list), a.counts);
    step('lists');
    const pageSha = writeWords(out, n, wordShards, wordPage, a);
    step('words');
    const { index, topCentroids } = writeCentroids(out, s, t, a.counts, layout, pageSha);
    t0 = clock();
    const calibration = tracker ? calibrateDepth(opts, out, s, t, a.counts, layout, topCentroids, tracker, log) : null;
    seconds.calibrate = clock() - t0;

    const manifest: ShardedManifest = {
      format: SHARDED_FORMAT,
      version: s.coder.seed === null ? SIGN_CODES_VERSION : SHARDED_VERSION,
      model: opts.model,
      dim,
      passages: n,
      documents: s.documents,
      createdAt: new Date().toISOString(),
      codec: s.coder.seed === null ? 'sign+int8' : 'rabitq+int8',
      ...(s.coder.choice.kind === 'rabitq'
        ? {
            codes: {
              kind: 'rabitq' as const,
              bits: s.coder.choice.bits,
              subBits: s.coder.choice.subBits,
              seed: s.coder.seed!,
            },
          }
        : {}),
      index: { file: INDEX_FILE, bytes: index.length, sha256: sha256(index) },
      centroids: { file: CENTROIDS_FILE, tops: t.tops },
      lists: { file: LISTS_FILE, count: t.lists },
      rows: { file: ROWS_FILE },
      texts: { file: TEXTS_FILE, bytes: a.textBytes },
      words: {
        file: WORDS_FILE,
        count: wordShards,
        table: WORD_TABLE_FILE,
        page: wordPage,
        passages: n,
        avgLength: a.totalLength / n || 1,
        tokenizer: TOKENIZER_VERSION,
      },
      ...(calibration
        ? {
            probe: {
              ntop: calibration.ntop,
              nprobe: calibration.nprobe,
              rescore: calibration.rescore,
              recall: calibration.recall,
              lower: calibration.lower,
              target: calibration.target,
              queries: calibration.queries,
              on: s.questionKind,
            },
          }
        : {}),
    };
    // Written last: a reader never finds a manifest naming blocks that are not there yet.
    writeFileSync(join(out, SHARDED_MANIFEST), JSON.stringify(manifest));
    const files = [
      SHARDED_MANIFEST,
      INDEX_FILE,
      CENTROIDS_FILE,
      LISTS_FILE,
      ROWS_FILE,
      TEXTS_FILE,
      WORD_TABLE_FILE,
      WORDS_FILE,
    ];
    const bytes = Object.fromEntries(files.map((f) => [f, readSize(join(out, f))]));
    return {
      passages: n,
      tops: t.tops,
      lists: t.lists,
      wordShards,
      coarse: t.how,
      sampleRows: s.S,
      wordBuckets: a.buckets.length,
      largestBucket: a.largestBucket,
      seconds,
      peakRss,
      calibration,
      calibratedOn: calibration ? s.questionKind : null,
      files: files.map((f) => join(out, f)),
      bytes,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
function readSize(path: string): number {
  return statSync(path).size;
}
