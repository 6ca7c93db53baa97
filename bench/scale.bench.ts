// A million passages in a tab (issue 22): the compact index (binary codes in memory,
// int8 rows on disk) against the exact flat index over the same vectors, at 100k and 1M
// × 384 (BENCH_SCALE_SIZES), for embedding-like and uniform vectors (bench/scale/vectors.ts
// says how they are made); then the word index (MiniSearch) at the same passage counts
// (BENCH_LEXICAL_SIZES; 0 skips). Ratios are against the flat index in the same run;
// the target for the compact p50 at 1M is the flat p50 at 100k.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CompactIndex } from '../src/core/compact-index';
import { FlatIndex } from '../src/core/flat-index';
import { int8Codec } from '../src/core/row-store';
import { LexicalIndex } from '../src/library/lexical/lexical-index';
import { FileRowStore } from '../src/core/byte-file';
import { NodeFile } from './scale/node-file';
import { passageTexts } from './scale/text';
import { describe, embeddingModel, embeddingVectors, uniformVectors, type VectorSet } from './scale/vectors';

const DIM = 384;
const K = 10;
const QUERIES = Number(process.env.BENCH_QUERIES ?? 100);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers * 0;
};
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
}
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
const fmt = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;

interface Row {
  set: string;
  index: string;
  n: number;
  buildMs: number;
  memBytes: number;
  p50: number;
  p95: number;
  recall: number;
}

function timeQueries(search: (q: Float32Array) => string[], qs: VectorSet, truth: Set<string>[] | null): { p50: number; p95: number; recall: number; results: string[][] } {
  for (let i = 0; i < Math.min(5, qs.n); i++) search(qs.row(i));
  const times: number[] = [];
  const results: string[][] = [];
  let hits = 0;
  for (let i = 0; i < qs.n; i++) {
    const t = performance.now();
    const ids = search(qs.row(i));
    times.push(performance.now() - t);
    results.push(ids);
    if (truth) for (const id of ids) if (truth[i]!.has(id)) hits++;
  }
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), recall: truth ? hits / (K * qs.n) : 1, results };
}

async function vectorRows(n: number, setName: 'embedding' | 'uniform', dir: string): Promise<{ rows: Row[]; stats: string }> {
  const t0 = performance.now();
  const model = embeddingModel(DIM, 1);
  const vs = setName === 'embedding' ? embeddingVectors(model, n, DIM) : uniformVectors(n, DIM, n);
  const qs = setName === 'embedding' ? embeddingVectors(model, QUERIES, DIM) : uniformVectors(QUERIES, DIM, 7);
  const d = describe(vs, 20);
  const stats = `${setName} ${n}: generated in ${fmt((performance.now() - t0) / 1000, 0)} s; mean cosine of random pairs ${fmt(d.randomPair, 3)}, of a row's nearest neighbour ${fmt(d.nearest, 3)} (among 20k)`;
  const ids = Array.from({ length: n }, (_, i) => String(i));
  const views = ids.map((_, i) => vs.row(i));
  const rows: Row[] = [];

  await settle();
  let before = used();
  let t = performance.now();
  let flat: FlatIndex | null = new FlatIndex(DIM);
  flat.add(ids, views);
  let buildMs = performance.now() - t;
  await settle();
  let memBytes = used() - before;
  const exact = timeQueries((q) => flat!.search(q, K).map((h) => h.id), qs, null);
  const truth = exact.results.map((r) => new Set(r));
  rows.push({ set: setName, index: 'flat (wasm simd)', n, buildMs, memBytes, p50: exact.p50, p95: exact.p95, recall: 1 });
  flat = null;

  const configs: Array<[string, number, number]> = setName === 'embedding' ? [['compact', 2000, 100]] : [['compact', 2000, 100], ['compact, wide', 20000, 1000]];
  for (const [name, candidates, rescore] of configs) {
    await settle();
    before = used();
    const rowsFile = new NodeFile(join(dir, `rows-${setName}-${n}-${candidates}.bin`));
    const store = new FileRowStore(int8Codec.rowBytes(DIM), rowsFile);
    t = performance.now();
    let compact: CompactIndex | null = new CompactIndex(DIM, { store, candidates, rescore });
    compact.add(ids, views);
    buildMs = performance.now() - t;
    await settle();
    memBytes = used() - before;
    const r = timeQueries((q) => compact!.search(q, K).map((h) => h.id), qs, truth);
    rows.push({ set: setName, index: `${name} (${candidates}→${rescore}, int8 on disk)`, n, buildMs, memBytes, p50: r.p50, p95: r.p95, recall: r.recall });
    // Incremental add: one more document's passages into the full index.
    const extra = setName === 'embedding' ? embeddingVectors(model, 20, DIM) : uniformVectors(20, DIM, 3);
    t = performance.now();
    compact.add(Array.from({ length: 20 }, (_, i) => `extra${i}`), Array.from({ length: 20 }, (_, i) => extra.row(i)));
    const addMs = performance.now() - t;
    rows[rows.length - 1]!.index += `; +20 passages in ${fmt(addMs, 1)} ms`;
    compact = null;
    rowsFile.close();
  }
  return { rows, stats };
}

async function lexicalRow(n: number): Promise<string> {
  await settle();
  const before = used();
  const next = passageTexts(n, n);
  const t = performance.now();
  const lex = new LexicalIndex();
  const BATCH = 10000;
  for (let i = 0; i < n; i += BATCH) lex.add(Array.from({ length: Math.min(BATCH, n - i) }, (_, j) => ({ id: `p${i + j}`, text: next() })));
  const buildMs = performance.now() - t;
  await settle();
  const heap = used() - before;
  const words = passageTexts(200, 5);
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const q = words().split(' ').slice(0, 6).join(' ');
    const t1 = performance.now();
    lex.search(q, 50);
    times.push(performance.now() - t1);
  }
  let snap = 'n/a';
  try {
    const s = await lex.snapshot();
    snap = mb(s.json.length);
  } catch (e) {
    snap = `fails: ${e instanceof Error ? e.message.slice(0, 60) : String(e)}`;
  }
  return `| ${n} | ${fmt(buildMs / 1000, 1)} s | ${mb(heap)} | ${snap} | ${fmt(percentile(times, 0.5))} | ${fmt(percentile(times, 0.95))} |`;
}

export async function run(): Promise<void> {
  const sizes = (process.env.BENCH_SCALE_SIZES ?? '100000,1000000').split(',').map(Number).filter((x) => x > 0);
  const sets = (process.env.BENCH_SCALE_SETS ?? 'embedding,uniform').split(',') as Array<'embedding' | 'uniform'>;
  const dir = mkdtempSync(join(tmpdir(), 'scale-bench-'));
  const all: Row[] = [];
  const notes: string[] = [];
  try {
    for (const setName of sets) {
      for (const n of sizes) {
        const { rows, stats } = await vectorRows(n, setName, dir);
        all.push(...rows);
        notes.push(stats);
        console.log(`(done ${setName} ${n})`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const flat100k = (s: string) => all.find((r) => r.set === s && r.n === 100000 && r.index.startsWith('flat'));
  console.log(`\n${DIM}-d, k=${K}, ${QUERIES} queries; memory is heap + external (WASM memory included) held after the build; recall@10 against the flat index on the same vectors.\n`);
  console.log('| vectors | index | n | build s | memory | memory / float32 | p50 ms | p95 ms | p50 / flat same n | p50 / flat 100k | recall@10 |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of all) {
    const same = all.find((b) => b.set === r.set && b.n === r.n && b.index.startsWith('flat'))!;
    const base = flat100k(r.set);
    console.log(
      `| ${r.set} | ${r.index} | ${r.n} | ${fmt(r.buildMs / 1000, 1)} | ${mb(r.memBytes)} | ${fmt(r.memBytes / (r.n * DIM * 4), 3)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p50 / same.p50)}× | ${base ? `${fmt(r.p50 / base.p50)}×` : 'n/a'} | ${fmt(r.recall, 3)} |`,
    );
  }
  for (const n of notes) console.log(`\nnote: ${n}`);

  const lexSizes = (process.env.BENCH_LEXICAL_SIZES ?? '100000,1000000').split(',').map(Number).filter((x) => x > 0);
  if (lexSizes.length) {
    console.log('\nWord index (MiniSearch through LexicalIndex), synthetic Zipf passages of 60–120 words:\n');
    console.log('| passages | build | heap held | snapshot JSON | query p50 ms | query p95 ms |');
    console.log('|---:|---:|---:|---:|---:|---:|');
    for (const n of lexSizes) console.log(await lexicalRow(n));
  }
}
