// Mixed embedding variants (issue 28): the browser embeds questions with q8 weights on WASM and
// fp32 on WebGPU (transformers.js's per-device default), `npm run index` embeds the site corpus in
// Node with fp32 (onnxruntime-node, device 'cpu': transformers.js defaults to fp32 there). What
// does a question lose when its variant differs from the library's? Measured with the REAL
// all-MiniLM-L6-v2 (needs `npm run models -- --real`; without it this bench says so and stops):
//  1. the labelled retrieval set (bench/retrieval/labelled-set.ts): dense-only recall@3/@10 and MRR
//     of its gold passages for the four question × library pairings;
//  2. the real-text corpus (bench/real/), where both variants' vectors are cached: the top 10 of
//     each pairing against the top 10 of fp32 questions on the fp32 library (exact search).
// Baseline in the same run: matched fp32/fp32.
import { FlatIndex } from '../src/vector/flat-index';
import { embeddingText } from '../src/library/ingest';
import { HOW_TO_FETCH, realModelsDir } from '../scripts/real-models/catalogue';
import { labelledSet } from './retrieval/labelled-set';
import { createRealEmbedder, realEmbedderDir, type RealVariant } from './real/real-embedder';
import { cachedPassageVectors, cachedQueryVectors, exactTopK, type CachedVectors } from './real/vector-file';

const VARIANTS: RealVariant[] = ['fp32', 'q8'];
const PAIRS: Array<[RealVariant, RealVariant]> = [
  ['fp32', 'fp32'],
  ['q8', 'q8'],
  ['q8', 'fp32'],
  ['fp32', 'q8'],
];
const f3 = (x: number) => x.toFixed(3);
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

async function labelled(): Promise<void> {
  const { passages, questions } = labelledSet();
  const lib = new Map<RealVariant, FlatIndex>();
  const qv = new Map<RealVariant, Float32Array[]>();
  const pv = new Map<RealVariant, Float32Array[]>();
  for (const v of VARIANTS) {
    const e = createRealEmbedder(v);
    const vs = await e.embed(passages.map(embeddingText));
    pv.set(v, vs);
    const ix = new FlatIndex(vs[0]!.length);
    ix.add(
      passages.map((p) => p.id),
      vs,
    );
    lib.set(v, ix);
    qv.set(v, await e.embedQueries(questions.map((q) => q.question)));
    await e.dispose();
  }
  const cos = passages.map((_, i) => dot(pv.get('fp32')![i]!, pv.get('q8')![i]!));
  console.log(
    `\nLabelled set: ${passages.length} passages, ${questions.length} questions; dense (meaning) search only, exact. REAL all-MiniLM-L6-v2.`,
  );
  console.log(
    `Cosine between a passage's fp32 and q8 vectors: mean ${f3(cos.reduce((a, b) => a + b, 0) / cos.length)}, min ${f3(Math.min(...cos))}.\n`,
  );
  console.log('| questions | library | recall@3 | recall@10 | MRR | recall@10 − matched fp32 |');
  console.log('|---|---|---:|---:|---:|---:|');
  let base = NaN;
  for (const [q, l] of PAIRS) {
    let r3 = 0;
    let r10 = 0;
    let mrr = 0;
    questions.forEach((question, i) => {
      const at = lib
        .get(l)!
        .search(qv.get(q)![i]!, 10)
        .findIndex((h) => h.id === question.gold);
      if (at >= 0 && at < 3) r3++;
      if (at >= 0) {
        r10++;
        mrr += 1 / (at + 1);
      }
    });
    const n = questions.length;
    if (q === 'fp32' && l === 'fp32') base = r10 / n;
    console.log(
      `| ${q} | ${l} | ${f3(r3 / n)} | ${f3(r10 / n)} | ${f3(mrr / n)} | ${((r10 / n - base) * 100).toFixed(1)} points |`,
    );
  }
}

function corpus(): void {
  const libs = new Map<RealVariant, CachedVectors | null>(VARIANTS.map((v) => [v, cachedPassageVectors(v)]));
  const qs = new Map<RealVariant, CachedVectors | null>(VARIANTS.map((v) => [v, cachedQueryVectors(v)]));
  if (VARIANTS.some((v) => !libs.get(v) || !qs.get(v))) {
    console.log(
      "\nReal-text corpus: both variants' vectors are not cached; embed them with `npx tsx bench/real/embed-corpus.ts --variant fp32 --limit 2000` (and --variant q8).",
    );
    return;
  }
  const n = Math.min(...VARIANTS.map((v) => libs.get(v)!.n));
  const nq = Math.min(...VARIANTS.map((v) => qs.get(v)!.n));
  const K = 10;
  const top = (q: RealVariant, l: RealVariant) =>
    Array.from({ length: nq }, (_, i) => exactTopK(libs.get(l)!, qs.get(q)!.row(i), K, n));
  const truth = top('fp32', 'fp32');
  console.log(
    `\nReal-text corpus (bench/real/corpus.ts): the first ${n} passages, ${nq} held-out questions (first sentences of documents not in the corpus); exact search; REAL all-MiniLM-L6-v2. Overlap of each pairing's top ${K} with fp32 questions on the fp32 library's.\n`,
  );
  console.log(`| questions | library | overlap@${K} with fp32/fp32 | same top 1 |`);
  console.log('|---|---|---:|---:|');
  for (const [q, l] of PAIRS) {
    const got = q === 'fp32' && l === 'fp32' ? truth : top(q, l);
    let hits = 0;
    let first = 0;
    got.forEach((ids, i) => {
      const want = new Set(truth[i]);
      hits += ids.filter((id) => want.has(id)).length;
      if (ids[0] === truth[i]![0]) first++;
    });
    console.log(`| ${q} | ${l} | ${f3(hits / (K * nq))} | ${f3(first / nq)} |`);
  }
}

export async function run(): Promise<void> {
  if (!realEmbedderDir()) {
    console.log(
      `!!! REAL EMBEDDER ABSENT from ${realModelsDir()}: nothing to measure (the tiny stand-in has one variant). ${HOW_TO_FETCH}`,
    );
    return;
  }
  await labelled();
  corpus();
}
