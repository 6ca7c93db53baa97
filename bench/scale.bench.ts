// A million passages in a tab (issue 22): the compact index (binary codes in memory,
// int8 rows on disk) against the exact flat index over the same vectors, at 100k and 1M
// × 384 (BENCH_SCALE_SIZES), for embedding-like and uniform vectors (bench/scale/vectors.ts
// says how they are made); then the word index at the same passage counts
// (BENCH_LEXICAL_SIZES; 0 skips), against MiniSearch up to BENCH_MINISEARCH_MAX (default 100k).
// BENCH_SCALE_SIZES=0 skips the vector part. `--real` measures the real MiniLM's vectors instead (bench/real/scale-real.ts). Ratios are against the flat index in the same run;
// the target for the compact p50 at 1M is the flat p50 at 100k.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CompactIndex, DEFAULT_RESCORE } from '../src/vector/compact-index';
import { FlatIndex } from '../src/vector/flat-index';
import { int8Codec } from '../src/vector/row-store';
import MiniSearch from 'minisearch';
import type { RankedHit } from '../src/core/fusion';
import { LexicalIndex } from '../src/library/lexical/lexical-index';
import { MiniSearchLexical } from '../test/oracle/minisearch-lexical';
import { FileRowStore } from '../src/vector/byte-file';
import { NodeFile } from './scale/node-file';
import { passageTexts } from './scale/text';
import { describe, embeddingModel, embeddingVectors, uniformVectors, type VectorSet } from './scale/vectors';
import { realScale } from './real/scale-real';

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
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
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

function timeQueries(
  search: (q: Float32Array) => string[],
  qs: VectorSet,
  truth: Set<string>[] | null,
): { p50: number; p95: number; recall: number; results: string[][] } {
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

async function vectorRows(
  n: number,
  setName: 'embedding' | 'uniform',
  dir: string,
): Promise<{ rows: Row[]; stats: string }> {
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
  rows.push({
    set: setName,
    index: 'flat (wasm simd)',
    n,
    buildMs,
    memBytes,
    p50: exact.p50,
    p95: exact.p95,
    recall: 1,
  });
  flat = null;

  const configs: Array<[string, number, number]> =
    setName === 'embedding'
      ? [['compact', 2000, DEFAULT_RESCORE]]
      : [
          ['compact', 2000, DEFAULT_RESCORE],
          ['compact, wide', 20000, 1000],
        ];
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
    rows.push({
      set: setName,
      index: `${name} (${candidates}→${rescore}, int8 on disk)`,
      n,
      buildMs,
      memBytes,
      p50: r.p50,
      p95: r.p95,
      recall: r.recall,
    });
    // Incremental add: one more document's passages into the full index.
    const extra = setName === 'embedding' ? embeddingVectors(model, 20, DIM) : uniformVectors(20, DIM, 3);
    t = performance.now();
    compact.add(
      Array.from({ length: 20 }, (_, i) => `extra${i}`),
      Array.from({ length: 20 }, (_, i) => extra.row(i)),
    );
    const addMs = performance.now() - t;
    rows[rows.length - 1]!.index += `; +20 passages in ${fmt(addMs, 1)} ms`;
    compact = null;
    rowsFile.close();
  }
  return { rows, stats };
}

interface WordRow {
  index: string;
  n: number;
  buildS: number;
  heap: number;
  snapBytes: number;
  writeS: number;
  loadS: number;
  heapLoaded: number;
  p50: number;
  p95: number;
  appendMs: number;
  agree: string;
}

/** Passage ids shaped like the library's (`doc-<16 hex>#n`), so the id table is measured at its real size. */
const passageId = (i: number) =>
  `doc-${(Math.imul(i, 2654435761) >>> 0).toString(16).padStart(8, '0')}${(i >>> 5).toString(16).padStart(8, '0')}#${i & 31}`;

/** Feeds n synthetic passages to `add` in batches; returns the seconds spent outside text generation. */
function feed(n: number, add: (docs: Array<{ id: string; text: string }>) => void): number {
  const next = passageTexts(n, n);
  const BATCH = 10000;
  let spent = 0;
  for (let i = 0; i < n; i += BATCH) {
    const docs = Array.from({ length: Math.min(BATCH, n - i) }, (_, j) => ({ id: passageId(i + j), text: next() }));
    const t = performance.now();
    add(docs);
    spent += performance.now() - t;
  }
  return spent / 1000;
}

function wordQueries(): string[] {
  const words = passageTexts(QUERIES, 5);
  return Array.from({ length: QUERIES }, () => words().split(' ').slice(0, 6).join(' '));
}

function timeWords(
  search: (q: string) => RankedHit[],
  qs: string[],
): { p50: number; p95: number; results: RankedHit[][] } {
  for (const q of qs.slice(0, 5)) search(q);
  const times: number[] = [];
  const results = qs.map((q) => {
    const t = performance.now();
    const r = search(q);
    times.push(performance.now() - t);
    return r;
  });
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), results };
}

/** MiniSearch 7 (the word index before issue 22) at n passages: the baseline, measured in the same run. */
async function miniSearchRow(n: number, qs: string[]): Promise<{ row: WordRow; results: RankedHit[][] }> {
  await settle();
  const before = used();
  let ms: MiniSearchLexical | null = new MiniSearchLexical();
  const buildS = feed(n, (docs) => ms!.add(docs));
  await settle();
  const heap = used() - before;
  const { p50, p95, results } = timeWords((q) => ms!.search(q, 50), qs);
  let t = performance.now();
  let json: string | null = ms.snapshotJson();
  const writeS = (performance.now() - t) / 1000;
  const snapBytes = json.length;
  ms = null;
  await settle();
  const beforeLoad = used();
  t = performance.now();
  const loaded = MiniSearch.loadJSON(json, { fields: ['text'] });
  const loadS = (performance.now() - t) / 1000;
  json = null;
  await settle();
  const heapLoaded = used() - beforeLoad;
  void loaded.documentCount;
  return {
    row: {
      index: 'MiniSearch 7.2 (before)',
      n,
      buildS,
      heap,
      snapBytes,
      writeS,
      loadS,
      heapLoaded,
      p50,
      p95,
      appendMs: NaN,
      agree: 'oracle',
    },
    results,
  };
}

async function wordIndexRow(n: number, qs: string[], oracle: RankedHit[][] | null): Promise<WordRow> {
  await settle();
  const before = used();
  let ix: LexicalIndex | null = new LexicalIndex();
  const buildS = feed(n, (docs) => ix!.add(docs));
  await settle();
  const heap = used() - before;
  const { p50, p95, results } = timeWords((q) => ix!.search(q, 50), qs);
  let agree = 'n/a';
  if (oracle) {
    let same = 0;
    let worst = 0;
    results.forEach((r, i) => {
      const want = oracle[i]!.slice(0, 10);
      const got = r.slice(0, 10);
      if (got.map((h) => h.id).join() === want.map((h) => h.id).join()) same++;
      got.forEach((h, j) => (worst = Math.max(worst, Math.abs(h.score - (want[j]?.score ?? Infinity)))));
    });
    agree = `${same}/${qs.length} top-10 identical, max |Δscore| ${worst.toExponential(1)}`;
  }
  let t = performance.now();
  const snap = await ix.snapshot();
  const writeS = (performance.now() - t) / 1000;
  ix = null;
  await settle();
  const beforeLoad = used() - snap.bytes.length;
  t = performance.now();
  const loaded = LexicalIndex.fromSnapshot(snap)!;
  const loadS = (performance.now() - t) / 1000;
  await settle();
  // The loaded index reads its postings in place from the snapshot's buffer, so that buffer counts.
  const heapLoaded = used() - beforeLoad;
  const extra = passageTexts(20, 99);
  t = performance.now();
  loaded.add(Array.from({ length: 20 }, (_, i) => ({ id: `extra#${i}`, text: extra() })));
  const appendMs = performance.now() - t;
  if (loaded.size() !== n + 20) throw new Error('append lost passages');
  return {
    index: 'word index (binary)',
    n,
    buildS,
    heap,
    snapBytes: snap.bytes.length,
    writeS,
    loadS,
    heapLoaded,
    p50,
    p95,
    appendMs,
    agree,
  };
}

export async function run(): Promise<void> {
  // `npm run bench -- scale --real` (or BENCH_SCALE_REAL=1): the real-embedding measurement only
  // (bench/real/scale-real.ts); the default stays synthetic and as fast as before.
  if (process.argv.includes('--real') || process.env.BENCH_SCALE_REAL) {
    await realScale();
    return;
  }
  const sizes = (process.env.BENCH_SCALE_SIZES ?? '100000,1000000')
    .split(',')
    .map(Number)
    .filter((x) => x > 0);
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
  console.log(
    `\n${DIM}-d, k=${K}, ${QUERIES} queries; memory is heap + external (WASM memory included) held after the build; recall@10 against the flat index on the same vectors.\n`,
  );
  console.log(
    '| vectors | index | n | build s | memory | memory / float32 | p50 ms | p95 ms | p50 / flat same n | p50 / flat 100k | recall@10 |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of all) {
    const same = all.find((b) => b.set === r.set && b.n === r.n && b.index.startsWith('flat'))!;
    const base = flat100k(r.set);
    console.log(
      `| ${r.set} | ${r.index} | ${r.n} | ${fmt(r.buildMs / 1000, 1)} | ${mb(r.memBytes)} | ${fmt(r.memBytes / (r.n * DIM * 4), 3)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p50 / same.p50)}× | ${base ? `${fmt(r.p50 / base.p50)}×` : 'n/a'} | ${fmt(r.recall, 3)} |`,
    );
  }
  for (const n of notes) console.log(`\nnote: ${n}`);

  const lexSizes = (process.env.BENCH_LEXICAL_SIZES ?? '100000,1000000')
    .split(',')
    .map(Number)
    .filter((x) => x > 0);
  if (lexSizes.length) await wordRows(lexSizes);
}

/**
 * The word index at each size, and MiniSearch (the index it replaced) at sizes up to
 * BENCH_MINISEARCH_MAX (default 100k: at 1M it took 11 minutes and 2.9 GB) as the baseline.
 */
async function wordRows(sizes: number[]): Promise<void> {
  const msMax = Number(process.env.BENCH_MINISEARCH_MAX ?? 100000);
  const qs = wordQueries();
  const rows: WordRow[] = [];
  for (const n of sizes) {
    let oracle: RankedHit[][] | null = null;
    if (n <= msMax) {
      const m = await miniSearchRow(n, qs);
      rows.push(m.row);
      oracle = m.results;
    }
    rows.push(await wordIndexRow(n, qs, oracle));
    console.log(`(done words ${n})`);
  }
  const base = rows.find((r) => r.index.startsWith('MiniSearch'));
  const ratio = (x: number, b: number | undefined) => (b ? `${fmt(x / b)}×` : 'n/a');
  console.log(
    `\nWord index, synthetic Zipf passages of 60–120 words (40k-word vocabulary), ids like the library's; ${qs.length} questions of 6 words, top 50; build excludes generating the text; heap = heap + external held; "after load" includes the snapshot buffer the index reads in place.\n`,
  );
  console.log(
    '| index | passages | build s | heap held | snapshot | write s | load s | heap after load | p50 ms | p95 ms | +20 passages ms | heap / MiniSearch 100k | snapshot / MiniSearch 100k | p50 / MiniSearch 100k | agreement with MiniSearch |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of rows) {
    console.log(
      `| ${r.index} | ${r.n} | ${fmt(r.buildS, 1)} | ${mb(r.heap)} | ${mb(r.snapBytes)} | ${fmt(r.writeS)} | ${fmt(r.loadS)} | ${mb(r.heapLoaded)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.appendMs, 1)} | ${ratio(r.heap, base?.heap)} | ${ratio(r.snapBytes, base?.snapBytes)} | ${ratio(r.p50, base?.p50)} | ${r.agree} |`,
    );
  }
}
