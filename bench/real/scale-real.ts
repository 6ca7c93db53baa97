// Scale on real embeddings (`npm run bench -- scale --real`): the real-text corpus's cached
// all-MiniLM-L6-v2 vectors (bench/real/embed-corpus.ts; every passage it has embedded so far,
// or BENCH_REAL_N), held-out real questions (first sentences of documents left out of the
// corpus), and two approximations measured against exact search over the same vectors:
//   - the compact index (binary codes in memory, int8 rows on disk; 2000 candidates → 100 rescored);
//   - the sharded corpus written by the writer (scripts/sharded/) with its calibrated probe depth
//     (target recall@10 0.95, calibrated on the corpus's own passages), read at the manifest's depth.
// Baseline in the same run: the synthetic embedding-like vectors (bench/scale/vectors.ts) at the
// same count, through the same two indexes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompactIndex, DEFAULT_RESCORE } from '../../src/vector/compact-index';
import { FileRowStore } from '../../src/vector/byte-file';
import { FlatIndex } from '../../src/vector/flat-index';
import { int8Codec } from '../../src/vector/row-store';
import { ShardedCorpus } from '../../src/library/sharded/reader';
import { writeSharded, type ShardedRow, type ShardedSource } from '../../scripts/sharded/write-sharded';
import { NodeFile } from '../scale/node-file';
import { describe, embeddingModel, embeddingVectors } from '../scale/vectors';
import { serveDir } from '../../test/browser/harness';
import { CORPUS_FILES, readJsonl, realCorpusDir, type CorpusPassage } from './corpus';
import { cachedPassageVectors, cachedQueryVectors, REAL_DIM, type CachedVectors } from './vector-file';

const K = 10;
const f3 = (x: number) => x.toFixed(3);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;

interface Set_ {
  name: string;
  n: number;
  row(i: number): Float32Array;
  queries: Float32Array[];
  meta(i: number): Omit<ShardedRow, 'embedding'>;
}

interface Result {
  set: string;
  index: string;
  n: number;
  recall: number;
  /** Per-question recall's 10th percentile: how bad the worse questions get. */
  p10: number;
  /** Recall counting as a hit any passage whose exact score is within NEAR_TIE of the exact 10th's (near-duplicates swapped). */
  tolerant: number;
  p50ms: number;
  note: string;
}

const NEAR_TIE = 0.01;
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

function recallOf(
  set: Set_,
  got: string[][],
  truth: Set<string>[],
  tenth: number[],
): { recall: number; p10: number; tolerant: number } {
  const per = got.map((ids, i) => ids.filter((id) => truth[i]!.has(id)).length / K);
  const near = got.map(
    (ids, i) =>
      ids.filter((id) => truth[i]!.has(id) || dot(set.queries[i]!, set.row(Number(id))) >= tenth[i]! - NEAR_TIE)
        .length / K,
  );
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return { recall: mean(per), p10: pct(per, 0.1), tolerant: mean(near) };
}

async function measure(set: Set_, dir: string): Promise<Result[]> {
  const ids = Array.from({ length: set.n }, (_, i) => String(i));
  const views = ids.map((_, i) => set.row(i));
  const flat = new FlatIndex(REAL_DIM);
  flat.add(ids, views);
  const exact = set.queries.map((q) => flat.search(q, K));
  const truth = exact.map((hits) => new Set(hits.map((h) => h.id)));
  const tenth = exact.map((hits) => hits[hits.length - 1]!.score);
  const out: Result[] = [];

  // The index's default (2000 Hamming candidates, 100 rows scored on int8), then wider passes, to
  // show which pass loses on real vectors: rescoring 400 or all 2000 candidates, and every row
  // through every pass (that is the int8 scores alone).
  // The full int8 scan is a diagnostic that costs n × questions dot products (about 18 minutes
  // at 100k here): above 50k it runs only when asked for (BENCH_REAL_FULL_SCAN=1).
  const fullScan = set.n <= 50_000 || process.env.BENCH_REAL_FULL_SCAN === '1';
  if (!fullScan)
    console.log(
      `[scale --real] ${set.name}: the every-row int8 scan skipped at ${set.n} rows (BENCH_REAL_FULL_SCAN=1 runs it)`,
    );
  for (const [candidates, rescore] of [
    [2000, 100],
    [2000, 400],
    [2000, 2000],
    ...(fullScan ? ([[set.n, set.n]] as const) : []),
  ] as const) {
    const rowsFile = new NodeFile(join(dir, `rows-${set.name}-${candidates}-${rescore}.bin`));
    const compact = new CompactIndex(REAL_DIM, {
      store: new FileRowStore(int8Codec.rowBytes(REAL_DIM), rowsFile),
      candidates,
      rescore,
    });
    compact.add(ids, views);
    const times: number[] = [];
    const got = set.queries.map((q) => {
      const t = performance.now();
      const r = compact.search(q, K).map((h) => h.id);
      times.push(performance.now() - t);
      return r;
    });
    rowsFile.close();
    const name =
      candidates === set.n
        ? 'compact, every row int8-scored (no 1-bit passes)'
        : `compact (${candidates}→${rescore}, int8 on disk)${rescore === DEFAULT_RESCORE ? ', default' : ''}`;
    out.push({
      set: set.name,
      index: name,
      n: set.n,
      ...recallOf(set, got, truth, tenth),
      p50ms: pct(times, 0.5),
      note: '',
    });
  }

  // The writer's depth, calibrated on its own passages (the default) and on 200 of the held-out
  // questions (`--questions`), the latter measured on the other 800 so no question grades itself.
  const CALIBRATION_QUESTIONS = 200;
  const given = new Float32Array(CALIBRATION_QUESTIONS * REAL_DIM);
  set.queries.slice(0, CALIBRATION_QUESTIONS).forEach((q, i) => given.set(q, i * REAL_DIM));
  for (const withQuestions of [false, true]) {
    const site = join(dir, `site-${set.name}-${withQuestions ? 'questions' : 'passages'}`);
    const source: ShardedSource = {
      rowCount: set.n,
      async *rows() {
        for (let i = 0; i < set.n; i++) yield { ...set.meta(i), id: String(i), embedding: set.row(i) };
      },
    };
    const t0 = performance.now();
    const written = await writeSharded({
      out: join(site, 'corpus'),
      model: 'all-MiniLM-L6-v2',
      source,
      targetRecall: 0.95,
      ...(withQuestions ? { questions: given } : {}),
    });
    const buildS = (performance.now() - t0) / 1000;
    const served = await serveDir(site);
    try {
      const corpus = await ShardedCorpus.open(`${served.url}corpus/`, { fetch });
      const d = corpus.depth;
      const p = corpus.manifest.probe;
      const from = withQuestions ? CALIBRATION_QUESTIONS : 0;
      const stimes: number[] = [];
      const sgot: string[][] = [];
      for (const q of set.queries.slice(from)) {
        const t = performance.now();
        const a = await corpus.search({
          vector: q,
          text: '',
          k: K,
          nprobe: d.nprobe,
          ntop: d.ntop,
          rescore: d.rescore,
          mode: 'meaning',
        });
        stimes.push(performance.now() - t);
        if (a.problems.length) throw new Error(a.problems.join('; '));
        sgot.push(a.hits.map((h) => h.passage.id));
      }
      const measured: Set_ = { ...set, queries: set.queries.slice(from) };
      out.push({
        set: set.name,
        index: `sharded, writer's depth calibrated on ${withQuestions ? `${CALIBRATION_QUESTIONS} held-out questions (--questions)` : 'its passages (default)'}: ${d.ntop} tops × ${d.nprobe} lists, rescore ${d.rescore}`,
        n: set.n,
        ...recallOf(measured, sgot, truth.slice(from), tenth.slice(from)),
        p50ms: pct(stimes, 0.5),
        note: `${withQuestions ? 'questions' : 'passages'}: ${written.lists} lists (${written.coarse}); built in ${buildS.toFixed(0)} s; the writer's own estimate on ${p?.queries ?? '?'} ${withQuestions ? 'given questions' : 'of its passages'}: ${p?.recall ?? '?'} (95 % lower bound ${p?.lower ?? '?'}); ${withQuestions ? `measured on the other ${set.queries.length - from} questions` : `measured on all ${set.queries.length}`}`,
      });
    } finally {
      await served.close();
    }
  }
  return out;
}

export async function realScale(): Promise<void> {
  const limit = Number(process.env.BENCH_REAL_N ?? Infinity);
  // The library's variant: q8 (what a page embeds with on WASM); fp32 where only it is cached.
  const variant = (cachedPassageVectors('q8')?.n ?? 0) >= (cachedPassageVectors('fp32')?.n ?? 0) ? 'q8' : 'fp32';
  const vs: CachedVectors | null = cachedPassageVectors(variant, limit);
  const qs = cachedQueryVectors(variant);
  if (!vs || !qs || vs.n < 1000) {
    console.log(
      `!!! no real-corpus vectors cached in ${realCorpusDir()}: build them with \`npx tsx bench/real/build-corpus.ts\` then \`npx tsx bench/real/embed-corpus.ts --variant q8 --limit 100000\` (needs \`npm run models -- --real\`).`,
    );
    return;
  }
  const passages = await readJsonl<CorpusPassage>(join(realCorpusDir(), CORPUS_FILES.passages), vs.n);
  const sources = new Map<string, number>();
  for (const p of passages) sources.set(p.source, (sources.get(p.source) ?? 0) + 1);
  const queries = Array.from({ length: qs.n }, (_, i) => qs.row(i));
  const real: Set_ = {
    name: `real MiniLM ${variant}`,
    n: vs.n,
    row: (i) => vs.row(i),
    queries,
    meta: (i) => {
      const p = passages[i]!;
      return { id: String(i), docId: p.docId, title: p.title, text: p.text, index: p.index };
    },
  };
  const model = embeddingModel(REAL_DIM, 1);
  const syn = embeddingVectors(model, vs.n, REAL_DIM);
  const synQ = embeddingVectors(model, queries.length, REAL_DIM);
  const synthetic: Set_ = {
    name: 'synthetic embedding-like',
    n: vs.n,
    row: (i) => syn.row(i),
    queries: Array.from({ length: queries.length }, (_, i) => synQ.row(i)),
    meta: (i) => ({
      id: String(i),
      docId: `d${Math.floor(i / 10)}`,
      title: `Document ${Math.floor(i / 10)}`,
      text: `passage ${i}`,
      index: i % 10,
    }),
  };
  const dir = mkdtempSync(join(tmpdir(), 'scale-real-'));
  try {
    const rows = [...(await measure(synthetic, dir)), ...(await measure(real, dir))];
    console.log(
      `\nREAL EMBEDDINGS: ${vs.n} passages of real text (${[...sources].map(([s, n]) => `${n} ${s}`).join(', ')}) embedded by the REAL all-MiniLM-L6-v2 (${variant}); ${queries.length} held-out questions (first sentences of documents not in the corpus, same variant). Baseline: synthetic embedding-like vectors, same count, same run. recall@10 against exact search over the same vectors.\n`,
    );
    console.log(
      `| vectors | index | passages | recall@10 | 10th-percentile question | recall@10, near-ties (within ${NEAR_TIE} of the 10th's cosine) counted | p50 ms | recall / synthetic same index |`,
    );
    console.log('|---|---|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      // The synthetic row of the same index and passes (the sharded rows differ only in the depth the writer chose).
      const same = (i: string) => (i.startsWith('sharded') ? i.replace(/: \d+ tops.*$/, '') : i);
      const base = rows.find((b) => b.set === synthetic.name && same(b.index) === same(r.index))!;
      console.log(
        `| ${r.set} | ${r.index} | ${r.n} | ${f3(r.recall)} | ${f3(r.p10)} | ${f3(r.tolerant)} | ${r.p50ms.toFixed(2)} | ${(r.recall / base.recall).toFixed(3)} |`,
      );
    }
    for (const r of rows) if (r.note) console.log(`\nnote (${r.set}): ${r.note}`);
    // Why the two differ: how alike random pairs and nearest neighbours are in each (among 20k rows).
    for (const [name, v] of [
      ['synthetic', syn],
      ['real', { dim: REAL_DIM, ...vs }],
    ] as const) {
      const d = describe(v, 20);
      console.log(
        `note (${name}): mean cosine of random pairs ${f3(d.randomPair)}, of a row's nearest neighbour ${f3(d.nearest)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
