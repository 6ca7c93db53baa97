// Flat vs voy-search at 1k, 10k and 100k × 384 random unit vectors: build time,
// query p50/p95, memory, persisted bytes and recall@10 against an exact scan.
// Ratios are against the flat index measured in the same run.
// BENCH_SIZES=1000,10000 limits sizes; BENCH_VOY_MAX (default 10000) caps voy,
// whose build at 100k takes minutes and gigabytes on a 2-core machine.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { jsKernel } from '../src/vector/dot-kernel';
import { FlatIndex } from '../src/vector/flat-index';
import type { VectorIndex } from '../src/vector/vector-index';
import { simdKernel, simdSupported } from '../src/vector/simd-kernel';
import { VoyIndex } from '../workers/index/voy-index';
import { loadVoyInNode } from '../workers/index/voy-node';

const DIM = 384;
const K = 10;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32 - 0.5;
  };
}

function unitVectors(n: number, seed: number): Float32Array[] {
  const r = rng(seed);
  const out: Float32Array[] = [];
  for (let i = 0; i < n; i++) {
    const v = new Float32Array(DIM);
    let s = 0;
    for (let j = 0; j < DIM; j++) s += (v[j] = r()) ** 2;
    const norm = Math.sqrt(s);
    for (let j = 0; j < DIM; j++) v[j]! /= norm;
    out.push(v);
  }
  return out;
}

/** Exact top-k ids by a plain double-precision scan: the ground truth for recall. */
function truth(vs: Float32Array[], q: Float32Array): Set<number> {
  const scores = vs.map((v, i) => {
    let s = 0;
    for (let j = 0; j < DIM; j++) s += v[j]! * q[j]!;
    return [s, i] as const;
  });
  scores.sort((a, b) => b[0] - a[0]);
  return new Set(scores.slice(0, K).map(([, i]) => i));
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};
// `external` already includes ArrayBuffers and WebAssembly memories (voy's and the SIMD kernel's).
const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

interface Row {
  name: string;
  n: number;
  buildMs: number;
  p50: number;
  p95: number;
  memBytes: number;
  persisted: number;
  recall: number;
}

/** Full GCs with turns of the event loop between, so freed ArrayBuffer memory is really returned before reading it. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function measure(
  name: string,
  make: () => VectorIndex,
  vs: Float32Array[],
  ids: string[],
  queries: Float32Array[],
  truths: Set<number>[],
): Promise<Row> {
  await settle();
  const before = used();
  const t0 = performance.now();
  const index = make();
  index.add(ids, vs);
  const buildMs = performance.now() - t0;
  await settle();
  const memBytes = used() - before;
  for (const q of queries.slice(0, 5)) index.search(q, K); // warm-up
  const times: number[] = [];
  let hits = 0;
  queries.forEach((q, qi) => {
    const t = performance.now();
    const res = index.search(q, K);
    times.push(performance.now() - t);
    for (const h of res) if (truths[qi]!.has(Number(h.id))) hits++;
  });
  const persisted = index.serialize().length;
  return {
    name,
    n: vs.length,
    buildMs,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    memBytes,
    persisted,
    recall: hits / (K * queries.length),
  };
}

const fmt = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

export async function run(): Promise<void> {
  await loadVoyInNode();
  const sizes = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
  const voyMax = Number(process.env.BENCH_VOY_MAX ?? 10000);
  const rows: Row[] = [];
  const notes: string[] = [];
  for (const n of sizes) {
    const vs = unitVectors(n, n);
    const ids = vs.map((_, i) => String(i));
    const queries = unitVectors(n >= 100000 ? 30 : 100, 7);
    const truths = queries.map((q) => truth(vs, q));
    rows.push(await measure('flat (js)', () => new FlatIndex(DIM, jsKernel(DIM)), vs, ids, queries, truths));
    if (simdSupported())
      rows.push(await measure('flat (wasm simd)', () => new FlatIndex(DIM, simdKernel(DIM)), vs, ids, queries, truths));
    if (n <= voyMax) rows.push(await measure('voy', () => new VoyIndex(DIM), vs, ids, queries, truths));
    else
      notes.push(
        `voy skipped at ${n} vectors (BENCH_VOY_MAX=${voyMax}): its build grows super-linearly and holds every vector as a JS number array; at 10k it already takes seconds.`,
      );
  }
  const raw = (n: number) => n * DIM * 4;
  console.log(`\n${DIM}-d random unit vectors, k=${K}; ratios are against "flat (js)" at the same size.\n`);
  console.log(
    '| index | vectors | build ms | query p50 ms | query p95 ms | p50 ratio | memory | persisted | persisted / raw floats | recall@10 |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const base = rows.find((b) => b.n === r.n && b.name === 'flat (js)')!;
    console.log(
      `| ${r.name} | ${r.n} | ${fmt(r.buildMs, 0)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p50 / base.p50)}× | ${mb(r.memBytes)} | ${mb(r.persisted)} | ${fmt(r.persisted / raw(r.n), 3)} | ${fmt(r.recall, 3)} |`,
    );
  }
  for (const n of notes) console.log(`\nnote: ${n}`);
}
