// Ingestion with real embedders, in the page and in Node on the same machine, threads and batch:
// passages per second through the library's path (embedDocument through the evaluator worker in
// headless Chromium on WASM, served cross-origin isolated so threads apply; the same function over
// the same adapter in Node with onnxruntime-node), and the first load (worker, ORT, model files,
// session, first vector). Passages: three chapters of the Rust book, read and chunked by the app.
//   WASM threads 1, 2, 4 (the machine's cores bound what more threads can buy), batch sizes,
//   fp32 beside q8, and the other embedders at the default settings.
// Goal: the page at 0.9x Node or better, same model, weights and threads.
//   npm run bench -- ingest-real          BENCH_INGEST_REAL=quick: MiniLM q8 at the default only;
//                                         BENCH_INGEST_REAL=kernels: the WASM-against-native kernels only
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Passage } from '../src/core/ports';
import { DEFAULT_BATCH_SIZE } from '../src/evaluator/config';
import { embedDocument, readAndPrepare } from '../src/library/ingest';
import { HOW_TO_FETCH, REAL, realModelsDir } from '../scripts/real-models/catalogue';
import { mavenEmbeddersHere } from '../scripts/real-models/maven-embedders';
import { launchBrowser, serveDir } from '../test/browser/harness';
import type { EmbedBenchRun } from '../test/browser/pages/embed-bench-page';
import { createEmbedder } from '../workers/evaluator/embedder';
import { realEmbedderDir } from './real/real-embedder';
import { rustupDocs } from './html-main/sets';

const ROOT = join(import.meta.dirname, '..');
const CHAPTERS = ['ch16-02-message-passing.html', 'ch08-01-vectors.html', 'ch15-04-rc.html'];
const ROUNDS = 2;

interface Config {
  folder: string;
  dtype: 'fp32' | 'q8';
  threads: number;
  batch: number;
}

function configs(): Config[] {
  const base = { folder: REAL.embedder, dtype: 'q8' as const, threads: 2, batch: DEFAULT_BATCH_SIZE };
  if (process.env.BENCH_INGEST_REAL === 'quick') return [base];
  return [
    { ...base, threads: 1 },
    base,
    { ...base, threads: 4 },
    { ...base, batch: 8 },
    { ...base, batch: 32 },
    { ...base, dtype: 'fp32' },
    ...mavenEmbeddersHere().map((m) => ({ ...base, folder: m.folder })),
  ];
}

async function documents(): Promise<Passage[][]> {
  const book = join(rustupDocs() ?? '/usr/share/doc/rust-doc/html', 'book');
  const out: Passage[][] = [];
  for (const name of CHAPTERS) {
    const r = await readAndPrepare({ name, bytes: new Uint8Array(readFileSync(join(book, name))) });
    if (!r.ok) throw new Error(`${name}: ${r.reason}`);
    out.push(r.doc.passages);
  }
  return out;
}

const graph = (c: Config) => (c.dtype === 'fp32' ? 'onnx/model.onnx' : 'onnx/model_quantized.onnx');
const mb = (c: Config) => (statSync(join(realModelsDir(), c.folder, graph(c))).size / 1e6).toFixed(1);

async function nodeRate(c: Config, docs: Passage[][]): Promise<{ rate: number; firstLoad: number }> {
  const t0 = performance.now();
  const e = createEmbedder({
    model: { id: c.folder, dtype: c.dtype },
    source: 'local',
    localModelPath: `${realModelsDir()}/`,
    threads: c.threads,
    batchSize: c.batch,
  });
  await e.embed(['warm up the session']);
  const firstLoad = (performance.now() - t0) / 1000;
  const n = docs.reduce((s, d) => s + d.length, 0);
  let best = Infinity;
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    for (const d of docs) await embedDocument(e, d);
    best = Math.min(best, (performance.now() - start) / 1000);
  }
  await e.dispose();
  return { rate: n / best, firstLoad };
}

function buildE2e(out: string): void {
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--mode',
      'e2e',
      '--outDir',
      out,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
}

async function pageRun(out: string, c: Config, docs: Passage[][]): Promise<EmbedBenchRun> {
  const served = await serveDir(out, {
    headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' },
  });
  const browser = await launchBrowser({ webgpu: false });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.goto(`${served.url}test/browser/pages/embed-bench.html`);
    await page.waitForSelector('#status:text("ready")');
    return await page.evaluate((a) => window.embedBench(a), {
      device: 'wasm' as const,
      dtype: c.dtype,
      model: `bench/${c.folder}`,
      documents: docs,
      rounds: ROUNDS,
      threads: c.threads,
      batchSize: c.batch,
      raw: false,
    });
  } finally {
    await browser.close();
    await served.close();
  }
}

/**
 * The same graph through onnxruntime-web's WASM in Node and through onnxruntime-node, one thread,
 * one batch of 16 × 200 tokens: how much of the page's gap to Node is WebAssembly's kernels
 * against native ones, with no browser, worker or tokenizer in the way.
 */
async function kernelGap(): Promise<void> {
  const native = await import('onnxruntime-node');
  const web = await import('onnxruntime-web');
  web.env.wasm.numThreads = 1;
  const B = 16;
  const L = 200;
  type Ort = typeof native;
  const feeds = (ort: Ort) => {
    const ids = BigInt64Array.from({ length: B * L }, (_, i) =>
      BigInt(i % L === 0 ? 101 : 1000 + ((i * 7919) % 20000)),
    );
    const ones = new BigInt64Array(B * L).fill(1n);
    return {
      input_ids: new ort.Tensor('int64', ids, [B, L]),
      attention_mask: new ort.Tensor('int64', ones, [B, L]),
      token_type_ids: new ort.Tensor('int64', new BigInt64Array(B * L), [B, L]),
    };
  };
  console.log('\nKernels alone (MiniLM graph, one thread, 16 × 200 tokens, best of 3):');
  console.log('| weights | onnxruntime-web WASM in Node, passages/s | onnxruntime-node, passages/s | WASM / native |');
  console.log('|---|---:|---:|---:|');
  for (const c of [{ dtype: 'q8' }, { dtype: 'fp32' }] as const) {
    const path = join(realModelsDir(), REAL.embedder, graph({ ...c, folder: REAL.embedder, threads: 1, batch: B }));
    const rate = async (ort: Ort, opts: object) => {
      const session = await ort.InferenceSession.create(path, opts);
      const f = feeds(ort);
      await session.run(f);
      let best = Infinity;
      for (let r = 0; r < 3; r++) {
        const t = performance.now();
        await session.run(f);
        best = Math.min(best, performance.now() - t);
      }
      await session.release();
      return B / (best / 1000);
    };
    const w = await rate(web as unknown as Ort, {});
    const n = await rate(native, { intraOpNumThreads: 1 });
    console.log(`| ${c.dtype} | ${w.toFixed(1)} | ${n.toFixed(1)} | ${(w / n).toFixed(2)}× |`);
  }
}

export async function run(): Promise<void> {
  if (!realEmbedderDir()) {
    console.log(`!!! the real all-MiniLM-L6-v2 is not on this machine: nothing measured. ${HOW_TO_FETCH}`);
    return;
  }
  await kernelGap();
  if (process.env.BENCH_INGEST_REAL === 'kernels') return;
  const docs = await documents();
  const n = docs.reduce((s, d) => s + d.length, 0);
  const list = configs();
  const dir = mkdtempSync(join(tmpdir(), 'ingest-real-'));
  try {
    buildE2e(dir);
    for (const f of new Set(list.map((c) => c.folder)))
      cpSync(join(realModelsDir(), f), join(dir, 'models', 'bench', f), { recursive: true });
    console.log(
      `${n} passages of ${CHAPTERS.map((c) => basename(c, '.html')).join(', ')}; ${cpus().length} cores; load average at start ${loadavg()[0]!.toFixed(1)}; best of ${ROUNDS}, page and Node alternated per row.\n`,
    );
    console.log(
      '| model | weights | MB | threads | batch | page passages/s | Node passages/s | page / Node | page first load, s | Node first load, s | load avg |',
    );
    console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const c of list) {
      const page = await pageRun(dir, c, docs);
      const node = await nodeRate(c, docs);
      if (!page.crossOriginIsolated)
        throw new Error('the bench page was not cross-origin isolated: threads would not apply');
      const pageRate = n / Math.min(...page.librarySeconds);
      console.log(
        `| ${c.folder} | ${c.dtype} | ${mb(c)} | ${page.libraryThreads} | ${c.batch} | ${pageRate.toFixed(1)} | ${node.rate.toFixed(1)} | ${(pageRate / node.rate).toFixed(2)}× | ${page.firstLoadSeconds.toFixed(1)} | ${node.firstLoad.toFixed(1)} | ${loadavg()[0]!.toFixed(1)} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
