// Hybrid retrieval: quality on the labelled set (bench/retrieval/labelled-set.ts) for
// words / meaning / both / both + re-rank, the two fusions, MiniSearch vs Orama, and the
// latency of each stage at 10k and 100k passages.
// Quality runs twice when the real models are on this machine (`npm run models -- --real`):
// with the project's tiny generated embedder, a HASHED BAG OF WORDS (no meaning beyond shared
// words, and words outside its small vocabulary are [UNK]), and with the real all-MiniLM-L6-v2
// (fp32, the app's default embedder). Without the real models it says so loudly and runs the
// tiny one only. The cross-encoder is always the tiny one (it counts shared words): no real
// cross-encoder is in the registries these machines reach, so "+ re-rank" is not a real re-ranker's.
// The latency part uses the tiny models.
// BENCH_RETRIEVAL_SIZES=10000 limits the latency sizes.
import { create as oramaCreate, insertMultiple, save as oramaSave, search as oramaSearch } from '@orama/orama';
import { FlatIndex } from '../src/vector/flat-index';
import { fuse, type FusionMethod, type SearchMode } from '../src/core/fusion';
import { hybridRetrieve, RERANK_CANDIDATES, type RetrievalSettings } from '../src/core/hybrid';
import { normalise } from '../src/vector/vector-index';
import { embeddingText } from '../src/library/ingest';
import { FUSION_DEPTH, hybridSearch } from '../src/library/index-host';
import { makeTinyModels, tinyModelsStale, TINY_MODEL_IDS } from '../scripts/make-tiny-models';
import { LexicalIndex } from '../src/library/lexical/lexical-index';
import { MiniSearchLexical } from '../test/oracle/minisearch-lexical';
import { STOP_WORDS } from '../src/library/lexical/tokenize';
import { createEmbedder } from '../workers/evaluator/embedder';
import { createReranker } from '../workers/evaluator/reranker';
import { labelledSet, type LabelledQuestion, type QuestionKind } from './retrieval/labelled-set';
import { join } from 'node:path';
import { ROOT } from '../scripts/make-tiny-models';
import { HOW_TO_FETCH, realModelsDir } from '../scripts/real-models/catalogue';
import type { LoadedEmbedder } from '../workers/evaluator/embedder';
import { createRealEmbedder, realEmbedderDir } from './real/real-embedder';

const K = 10;
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};
const f2 = (x: number) => x.toFixed(2);
const f3 = (x: number) => x.toFixed(3);

function tinyModels() {
  if (tinyModelsStale()) makeTinyModels();
  const runtime = { source: 'local' as const, localModelPath: join(ROOT, 'test/fixtures/models') };
  return {
    embedder: createEmbedder({ ...runtime, model: { id: TINY_MODEL_IDS.embedder, dtype: 'fp32' } }),
    reranker: createReranker({
      ...runtime,
      batchSize: RERANK_CANDIDATES,
      model: { id: TINY_MODEL_IDS.reranker, dtype: 'fp32' },
    }),
  };
}

interface Metrics {
  r3: number;
  r10: number;
  mrr: number;
}

function score(ranked: string[][], qs: LabelledQuestion[]): Metrics {
  let r3 = 0;
  let r10 = 0;
  let mrr = 0;
  qs.forEach((q, i) => {
    const at = ranked[i]!.indexOf(q.gold);
    if (at >= 0 && at < 3) r3++;
    if (at >= 0 && at < 10) r10++;
    if (at >= 0 && at < 10) mrr += 1 / (at + 1);
  });
  return { r3: r3 / qs.length, r10: r10 / qs.length, mrr: mrr / qs.length };
}

async function quality(embedderName: string, embedder: LoadedEmbedder): Promise<void> {
  const { passages, questions } = labelledSet();
  const { reranker } = tinyModels();
  const vectors = await embedder.embed(passages.map(embeddingText));
  const dense = new FlatIndex(vectors[0]!.length);
  dense.add(
    passages.map((p) => p.id),
    vectors,
  );
  const lexical = new LexicalIndex();
  lexical.add(passages.map((p) => ({ id: p.id, text: embeddingText(p) })));
  const byId = new Map(passages.map((p) => [p.id, p]));
  const qVectors = (await embedder.embedQueries(questions.map((q) => q.question))).map((v) => normalise(v, v.length));
  let rerankCalls = 0;
  const rerank = async (q: string, texts: string[]) => {
    rerankCalls++;
    return reranker.score(q, texts);
  };

  const configs: Array<{ name: string; search: SearchMode; rerank: boolean; fusion?: FusionMethod }> = [
    { name: 'words (BM25)', search: 'words', rerank: false },
    { name: `meaning (${embedderName})`, search: 'meaning', rerank: false },
    { name: 'both, reciprocal rank fusion', search: 'both', rerank: false, fusion: 'rrf' },
    { name: 'both, weighted sum (default fusion)', search: 'both', rerank: false, fusion: 'weighted' },
    { name: 'both + re-rank (default)', search: 'both', rerank: true, fusion: 'weighted' },
    { name: 'both (RRF) + re-rank', search: 'both', rerank: true, fusion: 'rrf' },
    { name: 'meaning + re-rank', search: 'meaning', rerank: true },
  ];
  const kinds: QuestionKind[] = ['identifier', 'name', 'paraphrase', 'keyword'];
  console.log(
    `\nLabelled set: ${passages.length} passages, ${questions.length} questions (${kinds.map((k) => `${questions.filter((q) => q.kind === k).length} ${k}`).join(', ')}).`,
  );
  console.log(
    `EMBEDDER: ${embedderName}. RE-RANKER: the tiny stand-in cross-encoder (counts shared words; no real cross-encoder exists here).\n`,
  );
  console.log(`| retrieval | recall@3 | recall@10 | MRR | ${kinds.map((k) => `MRR ${k}`).join(' | ')} |`);
  console.log(`|---|---:|---:|---:|${kinds.map(() => '---:').join('|')}|`);
  for (const c of configs) {
    const before = rerankCalls;
    const ranked: string[][] = [];
    for (const [i, q] of questions.entries()) {
      const settings: RetrievalSettings = { search: c.search, rerank: c.rerank };
      const got = await hybridRetrieve(
        {
          embedQuery: async () => qVectors[i]!,
          search: async (req) => hybridSearch({ ...req, fusion: c.fusion ?? 'weighted' }, dense, lexical),
          passages: async (ids) => ids.map((id) => byId.get(id)),
          rerank,
        },
        q.question,
        K,
        settings,
      );
      ranked.push(got.map((p) => p.id));
    }
    const all = score(ranked, questions);
    const per = kinds.map((k) => {
      const idx = questions.flatMap((q, i) => (q.kind === k ? [i] : []));
      return score(
        idx.map((i) => ranked[i]!),
        idx.map((i) => questions[i]!),
      ).mrr;
    });
    const calls = rerankCalls - before;
    console.log(
      `| ${c.name} | ${f3(all.r3)} | ${f3(all.r10)} | ${f3(all.mrr)} | ${per.map(f3).join(' | ')} |${c.rerank ? ` <!-- ${calls / questions.length} cross-encoder call(s) per question -->` : ''}`,
    );
  }
  console.log(
    `\nRe-rank: ${RERANK_CANDIDATES} fused candidates per question, scored in ONE cross-encoder call (${rerankCalls / 3 / questions.length} call per question per re-ranked configuration).`,
  );

  // Orama, the other library measured, on the same questions (words only).
  const orama = oramaCreate({ schema: { id: 'string', text: 'string' } as const });
  await insertMultiple(
    orama,
    passages.map((p) => ({ id: p.id, text: embeddingText(p) })),
  );
  const oranked: string[][] = [];
  for (const q of questions) {
    const res = await oramaSearch(orama, { term: q.question, properties: ['text'], limit: K, threshold: 1 });
    oranked.push(res.hits.map((h) => h.id));
  }
  const o = score(oranked, questions);
  const m = score(
    questions.map((q) => lexical.search(q.question, K).map((h) => h.id)),
    questions,
  );
  console.log(
    `\nWords only, same questions: MiniSearch (our tokenizer) recall@10 ${f3(m.r10)} MRR ${f3(m.mrr)}; Orama (its default tokenizer) recall@10 ${f3(o.r10)} MRR ${f3(o.mrr)}.`,
  );
  await reranker.dispose();
}

/** The tiny hashed embedder's figures, then the real MiniLM's beside them when its weights are here. */
async function qualityBothEmbedders(): Promise<void> {
  const tiny = tinyModels();
  await tiny.reranker.dispose();
  await quality('tiny hashed bag-of-words embedder, a stand-in', tiny.embedder);
  await tiny.embedder.dispose();
  if (!realEmbedderDir()) {
    console.log(
      `\n!!! REAL EMBEDDER ABSENT from ${realModelsDir()}: the figures above are the tiny stand-in's only, not MiniLM's. ${HOW_TO_FETCH}\n`,
    );
    return;
  }
  const real = createRealEmbedder('fp32');
  await quality('REAL all-MiniLM-L6-v2 fp32', real);
  await real.dispose();
}

// Synthetic passages for latency: Zipf-distributed words from a 30k vocabulary, ~90 words each;
// as in English text, the most frequent words are function words (which the tokenizer drops).
function syntheticCorpus(n: number, seed: number): { texts: string[]; queries: string[] } {
  let s = seed >>> 0;
  const r = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  const V = 30_000;
  const stop = [...STOP_WORDS];
  // Fixed width, so no word is a prefix of another (Orama matches prefixes).
  const word = (i: number) => (i < stop.length ? stop[i]! : `w${i.toString(36).padStart(4, '0')}`);
  const zipf = () => Math.min(V - 1, Math.floor(Math.exp(r() * Math.log(V))) - 1);
  const texts: string[] = [];
  for (let i = 0; i < n; i++) {
    const ws: string[] = [];
    for (let j = 0; j < 90; j++) ws.push(word(zipf()));
    texts.push(ws.join(' '));
  }
  const queries: string[] = [];
  for (let i = 0; i < 200; i++) {
    const src = texts[Math.floor(r() * n)]!.split(' ');
    const q: string[] = [];
    for (let j = 0; j < 8; j++) q.push(src[Math.floor(r() * src.length)]!);
    queries.push(q.join(' '));
  }
  return { texts, queries };
}

function unitVectors(n: number, dim: number, seed: number): Float32Array[] {
  let s = seed >>> 0;
  const out: Float32Array[] = [];
  for (let i = 0; i < n; i++) {
    const v = new Float32Array(dim);
    let norm = 0;
    for (let j = 0; j < dim; j++) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      norm += (v[j] = (s >>> 0) / 2 ** 32 - 0.5) ** 2;
    }
    const k = 1 / Math.sqrt(norm);
    for (let j = 0; j < dim; j++) v[j]! *= k;
    out.push(v);
  }
  return out;
}

function time(fn: () => unknown, reps: number): number[] {
  const ms: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return ms;
}

async function latency(): Promise<void> {
  const sizes = (process.env.BENCH_RETRIEVAL_SIZES ?? '10000,100000').split(',').map(Number);
  const DIM = 384;
  const { embedder, reranker } = tinyModels();
  console.log(
    `\nLatency per question (Node, one thread; dense: flat wasm-simd over ${DIM}-d vectors; each list read ${FUSION_DEPTH} deep before fusing; 200 queries of 8 words; dense alone and hybrid timed alternately on the same questions, 400 each).`,
  );
  console.log(
    '\n| passages | dense alone p50 | lexical p50 | fusion p50 | hybrid (both, no re-rank) p50 | hybrid − dense p50 | hybrid p95 | embed question p50 | re-rank 20 (one call) p50 |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const n of sizes) {
    const { texts, queries } = syntheticCorpus(n, n);
    const ids = texts.map((_, i) => `p${i}#0`);
    const dense = new FlatIndex(DIM);
    dense.add(ids, unitVectors(n, DIM, 7));
    const lexical = new LexicalIndex();
    const t0 = performance.now();
    lexical.add(texts.map((text, i) => ({ id: ids[i]!, text })));
    const buildMs = performance.now() - t0;
    const qv = unitVectors(queries.length, DIM, 99);
    let qi = 0;
    const next = () => (qi = (qi + 1) % queries.length);
    // Warm up the JIT and the kernels.
    for (let i = 0; i < 50; i++)
      hybridSearch({ vector: qv[next()]!, text: queries[qi]!, mode: 'both', limit: 20 }, dense, lexical);
    const denseMs = time(() => dense.search(qv[next()]!, 20), 200);
    const lexMs = time(() => lexical.search(queries[next()]!, FUSION_DEPTH), 200);
    const lists = queries.map((q, i) => [lexical.search(q, FUSION_DEPTH), dense.search(qv[i]!, FUSION_DEPTH)] as const);
    const fuseMs = time(() => {
      const [l, d] = lists[next()]!;
      fuse(l, d, { limit: 20 });
    }, 200);
    // Dense alone and hybrid on the same question, alternately, so the machine's noise hits both alike.
    const hybridMs: number[] = [];
    const denseOnly: number[] = [];
    for (let r = 0; r < 400; r++) {
      const req = { vector: qv[next()]!, text: queries[qi]!, limit: 20 };
      denseOnly.push(...time(() => hybridSearch({ ...req, mode: 'meaning' }, dense, lexical), 1));
      hybridMs.push(...time(() => hybridSearch({ ...req, mode: 'both' }, dense, lexical), 1));
    }
    const embedMs: number[] = [];
    const rerankMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      let t = performance.now();
      await embedder.embedQueries([queries[i]!]);
      embedMs.push(performance.now() - t);
      const cands = texts.slice(i * 20, i * 20 + 20);
      t = performance.now();
      await reranker.score(queries[i]!, cands);
      rerankMs.push(performance.now() - t);
    }
    const snap = await lexical.snapshot();
    const p50 = (x: number[]) => percentile(x, 0.5);
    console.log(
      `| ${n / 1000}k | ${f2(p50(denseOnly))} | ${f2(p50(lexMs))} | ${f2(p50(fuseMs))} | ${f2(p50(hybridMs))} | ${f2(p50(hybridMs) - p50(denseOnly))} | ${f2(percentile(hybridMs, 0.95))} | ${f2(p50(embedMs))} | ${f2(p50(rerankMs))} |` +
        ` <!-- raw dense.search p50 ${f2(p50(denseMs))}; lexical build ${Math.round(buildMs)} ms, snapshot ${(snap.bytes.length / 1e6).toFixed(1)} MB -->`,
    );
  }
  await embedder.dispose();
  await reranker.dispose();
}

async function libraries(): Promise<void> {
  const n = 10_000;
  const { texts, queries } = syntheticCorpus(n, 5);
  const docs = texts.map((text, i) => ({ id: `p${i}#0`, text }));
  console.log(`\nLexical libraries at ${n / 1000}k synthetic passages (same texts and queries):`);
  console.log('\n| library | build ms | query p50 ms | query p95 ms | snapshot MB | remove by id alone |');
  console.log('|---|---:|---:|---:|---:|---|');
  {
    const t = performance.now();
    const words = new LexicalIndex();
    words.add(docs);
    const build = performance.now() - t;
    let i = 0;
    for (let w = 0; w < 50; w++) words.search(queries[w]!, FUSION_DEPTH);
    const q = time(() => words.search(queries[i++ % queries.length]!, FUSION_DEPTH), 200);
    const snap = await words.snapshot();
    console.log(
      `| word index (this repo: hashed terms, varint postings) | ${Math.round(build)} | ${f2(percentile(q, 0.5))} | ${f2(percentile(q, 0.95))} | ${(snap.bytes.length / 1e6).toFixed(1)} | yes (tombstone) |`,
    );
  }
  {
    const t = performance.now();
    const ms = new MiniSearchLexical();
    ms.add(docs);
    const build = performance.now() - t;
    let i = 0;
    for (let w = 0; w < 50; w++) ms.search(queries[w]!, FUSION_DEPTH);
    const q = time(() => ms.search(queries[i++ % queries.length]!, FUSION_DEPTH), 200);
    console.log(
      `| MiniSearch 7.2 (the word index before issue 22) | ${Math.round(build)} | ${f2(percentile(q, 0.5))} | ${f2(percentile(q, 0.95))} | ${(ms.snapshotJson().length / 1e6).toFixed(1)} | yes (\`discard\`) |`,
    );
  }
  {
    const t = performance.now();
    const db = oramaCreate({ schema: { id: 'string', text: 'string' } as const });
    await insertMultiple(db, docs);
    const build = performance.now() - t;
    for (let w = 0; w < 50; w++)
      await oramaSearch(db, { term: queries[w]!, properties: ['text'], limit: FUSION_DEPTH, threshold: 1 });
    const q: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t1 = performance.now();
      await oramaSearch(db, {
        term: queries[i % queries.length]!,
        properties: ['text'],
        limit: FUSION_DEPTH,
        threshold: 1,
      });
      q.push(performance.now() - t1);
    }
    const size = JSON.stringify(oramaSave(db)).length;
    console.log(
      `| Orama 3.1 | ${Math.round(build)} | ${f2(percentile(q, 0.5))} | ${f2(percentile(q, 0.95))} | ${(size / 1e6).toFixed(1)} | yes, but it stores every document's text |`,
    );
  }
}

export async function run(): Promise<void> {
  await qualityBothEmbedders();
  await libraries();
  await latency();
}
