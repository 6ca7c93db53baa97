// `npx tsx bench/real/write-matched.ts <rows> [questions]`: synthetic vectors matched to the real
// corpus's statistics (bench/real/matched.ts), written where route-sim.py reads real ones, for the
// sizes past what is embedded here (issue 36's 1M table: embedding a million passages on this
// machine would take days). Fitted on the embedded prefix of the real corpus (MiniLM q8 passages,
// the held-out real questions): topics, residual covariance, the document share (so the median
// nearest-row cosine matches) and the questions' noise (so a question's nearest-passage cosine
// matches). Prints real against matched at the fitted size, so a table built on these vectors can
// say how close they are. Writes <cache>/matched/vectors-<rows>.f32 and queries-<rows>.f32
// (row-major float32, as embed-corpus.ts caches real ones): replay them with
//   SIM_VECTORS=…/vectors-<rows>.f32 SIM_QUERIES=…/queries-<rows>.f32 python3 bench/gpu/route-sim.py <rows> …
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VectorSet } from '../scale/vectors';
import { CORPUS_FILES, readJsonl, realCorpusDir, type CorpusPassage } from './corpus';
import {
  dimVariance,
  drawMatched,
  fitDocShare,
  fitMatched,
  fitQuestionNoise,
  medianNearest,
  nearestCosine,
} from './matched';
import { cachedPassageVectors, cachedQueryVectors, REAL_DIM } from './vector-file';

const rows = Number(process.argv[2] ?? 1_000_000);
const questionCount = Number(process.argv[3] ?? 1000);
/** The real rows the model is fitted on: the embedded prefix, as route-sim reads it. */
const FIT_ROWS = Number(process.env.MATCHED_FIT_ROWS ?? 58_624);

const real = cachedPassageVectors('q8', FIT_ROWS);
const realQuestions = cachedQueryVectors('q8');
if (!real || !realQuestions || real.n < FIT_ROWS)
  throw new Error(`needs ${FIT_ROWS} real q8 vectors and the questions: run bench/real/embed-corpus.ts --variant q8`);
const log = (s: string) => console.log(`[matched +${(performance.now() / 1000).toFixed(0)} s] ${s}`);
const asSet = (n: number, data: Float32Array): VectorSet => ({
  dim: REAL_DIM,
  n,
  data,
  row: (i) => data.subarray(i * REAL_DIM, (i + 1) * REAL_DIM),
});
const realSet = asSet(real.n, real.data);
const questions = Array.from({ length: Math.min(200, realQuestions.n) }, (_, i) => realQuestions.row(i));

/** Mean cosine of `pairs` fixed pseudo-random pairs of rows. */
function pairCosine(s: VectorSet, pairs = 20000): number {
  let sum = 0;
  for (let t = 0; t < pairs; t++) {
    const a = s.row((t * 7919) % s.n),
      b = s.row((t * 104729 + 13) % s.n);
    for (let j = 0; j < s.dim; j++) sum += a[j]! * b[j]!;
  }
  return sum / pairs;
}

function correlation(a: Float64Array, b: Float64Array): number {
  const m = (x: Float64Array) => x.reduce((s, v) => s + v, 0) / x.length;
  const ma = m(a),
    mb = m(b);
  let ab = 0,
    aa = 0,
    bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

const passages = await readJsonl<CorpusPassage>(join(realCorpusDir(), CORPUS_FILES.passages), FIT_ROWS);
const docSize = passages.length / new Set(passages.map((p) => p.docId)).size;
log(`fitting on ${real.n} real rows (${docSize.toFixed(1)} passages a document)`);
const model = fitMatched(realSet.row, real.n, REAL_DIM);
model.docSize = docSize;
const realNearest = medianNearest(realSet);
model.docShare = fitDocShare(model, real.n, realNearest);
log(`document share ${model.docShare} (real median nearest-row cosine ${realNearest.toFixed(3)})`);
const realQ = nearestCosine(realSet, questions);
const atFit = drawMatched(model, real.n, 1);
model.questionNoise = fitQuestionNoise(model, atFit, realQ);
log(`question noise ${model.questionNoise} (real question's nearest-passage cosine ${realQ.toFixed(3)})`);

const drawnQ = drawMatched(model, questions.length, 4242, model.questionNoise, 1);
const rv = dimVariance(realSet),
  mv = dimVariance(atFit);
const total = (v: Float64Array) => v.reduce((s, x) => s + x, 0);
console.log(`\nAt ${real.n} rows, real MiniLM q8 against matched (drawn, seed 1):`);
console.log('| statistic | real | matched |');
console.log('|---|---:|---:|');
console.log(`| mean cosine of random pairs | ${pairCosine(realSet).toFixed(3)} | ${pairCosine(atFit).toFixed(3)} |`);
console.log(
  `| median cosine of a row's nearest other row (first 25,000) | ${realNearest.toFixed(3)} | ${medianNearest(atFit).toFixed(3)} |`,
);
console.log(
  `| mean cosine of a question's nearest passage (200 questions) | ${realQ.toFixed(3)} | ${nearestCosine(
    atFit,
    Array.from({ length: drawnQ.n }, (_, i) => drawnQ.row(i)),
  ).toFixed(3)} |`,
);
console.log(`| total per-dimension variance | ${total(rv).toFixed(3)} | ${total(mv).toFixed(3)} |`);
console.log(`| correlation of per-dimension variances | 1 | ${correlation(rv, mv).toFixed(3)} |\n`);

const dir = join(realCorpusDir(), '..', 'matched');
mkdirSync(dir, { recursive: true });
const out = drawMatched(model, rows, 1);
writeFileSync(join(dir, `vectors-${rows}.f32`), new Uint8Array(out.data.buffer));
const q = drawMatched(model, questionCount, 4242, model.questionNoise, 1);
writeFileSync(join(dir, `queries-${rows}.f32`), new Uint8Array(q.data.buffer));
log(`wrote ${rows} rows and ${questionCount} questions to ${dir}`);
