// Pass 1 of the writer: counts the passages and documents, keeps a reservoir sample to train the
// centroids on and the held-out questions the depth is calibrated on, sizes the text (for the
// word buckets), and learns the codes' centre (and the sign codes' spread) from the sample.
import { createHash } from 'node:crypto';
import { learnCentreSpread } from '../../src/vector/sign-codes';
import { mulberry32 } from '../../src/core/mulberry32';
import { CALIBRATION_QUERIES, type Placed } from './calibrate';
import { type Coder, coderFor, DEFAULT_CODES } from './coder';
import { sizing, unit, type WriteShardedOptions } from './options';
import { embedSample, PSEUDO_QUESTIONS, SentenceSample } from './pseudo-questions';
import { errorMessage } from '../../src/core/errors';

/** A uniform sample of a stream in one float32 buffer (grown as needed up to `capacity` rows). */
export class Reservoir {
  data: Float32Array;
  /** Where each row stands (the calibration's questions keep their place in their document). */
  readonly tags: Placed[] = [];
  size = 0;
  private seen = 0;
  private readonly rand: () => number;
  constructor(
    readonly dim: number,
    readonly capacity: number,
    seed = 22,
  ) {
    this.data = new Float32Array(Math.min(capacity, 4096) * dim);
    this.rand = mulberry32(seed);
  }
  /** Whether `v` was kept (for now: a later row may take its place). */
  add(v: Float32Array, tag?: Placed): boolean {
    if (this.capacity <= 0) return false;
    const j = this.size < this.capacity ? this.size++ : Math.floor(this.rand() * (this.seen + 1));
    this.seen++;
    if (j >= this.capacity) return false;
    if (tag !== undefined) this.tags[j] = tag;
    if ((j + 1) * this.dim > this.data.length) {
      const grown = new Float32Array(Math.min(this.capacity, 2 * (this.data.length / this.dim)) * this.dim);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set(v, j * this.dim);
    return true;
  }
  /** `rows` of the sample, evenly spread over it (it may be in stream order when the stream was short). */
  take(rows: number): Float32Array {
    if (rows >= this.size) return this.data.subarray(0, this.size * this.dim);
    const out = new Float32Array(rows * this.dim);
    for (let i = 0; i < rows; i++) {
      const r = Math.floor((i * this.size) / rows);
      out.set(this.data.subarray(r * this.dim, (r + 1) * this.dim), i * this.dim);
    }
    return out;
  }
}

/** Each `dim`-long row scaled to unit length (given questions may come unnormalised). */
function unitRows(rows: Float32Array, dim: number): Float32Array {
  const out = new Float32Array(rows.length);
  for (let i = 0; i < rows.length / dim; i++)
    out.set(unit(rows.subarray(i * dim, (i + 1) * dim), dim, `question ${i}`), i * dim);
  return out;
}
/** What pass 1 learnt: the counts, the training sample, the held-out questions, and the codes' centre and spread. */
export interface Survey {
  n: number;
  dim: number;
  documents: number;
  chars: number;
  /** Passages that named their list (all or none). */
  withList: number;
  sample: Float32Array;
  /** Rows in `sample`. */
  S: number;
  /** Passages held out of the sample: the calibration's questions. */
  questions: Float32Array;
  /** Each question's document and position in it. */
  questionPlaces: Placed[];
  /** What the questions are (calibrate.ts leaves their own document's passages out for pseudo-questions). */
  questionKind: 'questions' | 'pseudo-questions' | 'passages';
  centre: Float32Array;
  spread: Float32Array;
  /** How passages and sub-centroids are coded (coder.ts). */
  coder: Coder;
}

/** Pass 1: count, a reservoir sample for the centroids, and the text's size (for the word buckets). */
export async function survey(opts: WriteShardedOptions): Promise<Survey> {
  const { given, sampleBytes, sampleRows, isFlat } = sizing(opts);
  let n = 0;
  let dim = 0;
  let chars = 0;
  let withList = 0;
  let lastDoc: string | null = null;
  // Distinct documents, by a 48-bit hash of each id: Spark and Ray Data write rows in no
  // particular order, so a document's passages need not arrive together (counting changes of
  // id counted Ray's 94 documents as 103). 48 bits keep collisions rare at millions of documents.
  const docHashes = new Set<number>();
  let reservoir: Reservoir | null = null;
  // The calibration's questions are passages held out of the training sample: centroids fitted
  // to a question would route it better than a real question, and the recall measured would be
  // too high (a row kept here and later replaced is simply not trained on).
  let held: Reservoir | null = null;
  const pseudo =
    !opts.questions && opts.embedQuestions && (opts.calibrate ?? 1) > 0
      ? new SentenceSample(opts.calibrate ?? PSEUDO_QUESTIONS)
      : null;
  for await (const row of opts.source.rows()) {
    if (!dim) {
      dim = row.embedding.length;
      if (given && given.dim !== dim)
        throw new Error(
          `${given.source}: the centroids are ${given.dim}-d but passage ${row.id} has a ${dim}-d embedding`,
        );
      const known = opts.source.rowCount;
      reservoir = new Reservoir(
        dim,
        known
          ? sampleRows(known, dim, isFlat(known))
          : (opts.sample ?? (given ? 50000 : Math.max(50000, Math.floor(sampleBytes / (4 * dim))))),
      );
      // Given questions replace the held-out passages: none is held out then.
      held = new Reservoir(dim, opts.questions ? 0 : (opts.calibrate ?? CALIBRATION_QUERIES), 23);
      if (opts.questions && opts.questions.length % dim !== 0)
        throw new Error(`the calibration questions are not ${dim}-d vectors, as the passages are`);
    }
    if (row.embedding.length !== dim)
      throw new Error(`passage ${row.id} has a ${row.embedding.length}-d embedding, the first had ${dim}`);
    if (row.docId !== lastDoc) docHashes.add(createHash('md5').update(row.docId).digest().readUIntBE(0, 6));
    lastDoc = row.docId;
    if (row.list !== undefined) {
      if (!given)
        throw new Error(
          `passage ${row.id} names a list (${row.list}) but no centroids were given for it (--centroids)`,
        );
      if (!Number.isInteger(row.list) || row.list < 0 || row.list >= given.vectors.length / dim)
        throw new Error(
          `passage ${row.id}: list ${row.list} is out of range (${given.source} has ${given.vectors.length / dim} lists, 0 to ${given.vectors.length / dim - 1})`,
        );
      withList++;
    }
    const v = unit(row.embedding, dim, row.id);
    if (!held!.add(v, { docId: row.docId, index: row.index })) reservoir!.add(v);
    pseudo?.add(row.text, { docId: row.docId, index: row.index });
    chars += row.title.length + row.text.length;
    n++;
  }
  if (!n) throw new Error('no passages to index');
  if (withList && withList !== n)
    throw new Error(
      `${withList} of ${n} passages name a list and the others do not: give a list for every passage or for none`,
    );
  // A small corpus cannot spare its held-out rows: they are trained on too (its recall is then measured a little high).
  if (reservoir!.size < 10 * held!.size)
    for (let i = 0; i < held!.size; i++) reservoir!.add(held!.data.subarray(i * dim, (i + 1) * dim));
  const sample = reservoir!.take(sampleRows(n, dim, isFlat(n)));
  const S = sample.length / dim;
  // The codes' centre (and spread, for sign codes), learnt from the sample.
  const centre = new Float32Array(dim);
  const spread = new Float32Array(dim);
  learnCentreSpread(S, (r) => sample.subarray(r * dim, (r + 1) * dim), dim, centre, spread);
  return {
    n,
    dim,
    documents: docHashes.size,
    chars,
    withList,
    sample,
    S,
    ...(await calibrationQuestions(opts, dim, held!, pseudo)),
    centre,
    spread,
    coder: coderFor(opts.codes ?? DEFAULT_CODES, dim, centre, spread),
  };
}

/** What the depth is calibrated on: the questions given, else pseudo-questions, else the held-out passages. */
async function calibrationQuestions(
  opts: WriteShardedOptions,
  dim: number,
  held: Reservoir,
  pseudo: SentenceSample | null,
): Promise<Pick<Survey, 'questions' | 'questionPlaces' | 'questionKind'>> {
  if (opts.questions)
    return { questions: unitRows(opts.questions, dim), questionPlaces: [], questionKind: 'questions' };
  if (pseudo && pseudo.texts.length > 0) {
    try {
      const questions = await embedSample(pseudo, dim, opts.embedQuestions!);
      return { questions, questionPlaces: pseudo.places, questionKind: 'pseudo-questions' };
    } catch (e) {
      opts.log?.(
        `could not embed pseudo-questions (${errorMessage(e)}): the depth is calibrated on held-out passages, which promise more than real questions get; give --questions`,
      );
    }
  }
  return { questions: held.take(held.size), questionPlaces: held.tags.slice(0, held.size), questionKind: 'passages' };
}
