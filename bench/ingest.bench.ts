// Ingestion as a user feels it with the real default embedder: all-MiniLM-L6-v2 from
// `npm run models -- --real`, fp32 and q8 weights, embeds the passages of real-shaped
// documents. Without the real models it says so loudly and falls back to a
// MiniLM-L6-shaped encoder with random weights written here at bench time (same cost per
// token, meaningless outputs; fp32 only). The library's pipeline (read, parse,
// chunk, embed in batches, check every vector) is compared with the same model
// called directly through transformers.js on the same passages, in the same run
// (target: the pipeline at >= 0.9x the raw call's throughput).
//
// First in Node (onnxruntime-node on the CPU), then in headless Chromium on the
// e2e build's bench page (test/browser/pages/embed-bench-page.ts): WASM with one
// thread (a page that is not cross-origin isolated), WASM with threads (served with
// COOP/COEP), and WebGPU (SwiftShader here). In the browser the library's path is the
// real evaluator worker behind `embedDocument`; the raw call is transformers.js on the
// page's thread, on the same passages in the same batches.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BATCH_SIZE } from '../src/evaluator/config';
import { embeddingText, embedDocument, readAndPrepare, type PreparedDocument } from '../src/library/ingest';
import { loadPdfJsInNode } from '../src/library/parse/pdf-node';
import { writeRealShapedSet } from '../test/doubles/document-sets';
import type { EmbedBenchRun } from '../test/browser/pages/embed-bench-page';
import { launchBrowser, serveDir } from '../test/browser/harness';
import { createEmbedder } from '../workers/evaluator/embedder';
import { writeMiniLmShaped } from './minilm/model';
import { HOW_TO_FETCH, REAL, realModelsDir } from '../scripts/real-models/catalogue';
import { realEmbedderDir } from './real/real-embedder';

/** The model measured: the real MiniLM's folder and both weight variants, or the random-weight stand-in (fp32 only). */
interface BenchModel {
  label: string;
  /** Folder holding `<id>/`. */
  dir: string;
  id: string;
  dtypes: Array<'fp32' | 'q8'>;
}

const ROOT = join(import.meta.dirname, '..');
/** A printed page of prose, for "seconds per 100 pages". */
const PAGE_CHARS = 3000;
/** Documents embedded in Node (BENCH_INGEST_DOCS): fewer when the machine is busy, as a real model costs seconds per batch. */
const DOCS = Number(process.env.BENCH_INGEST_DOCS ?? 40);
/** Passages embedded per browser run (whole documents, so pages stay exact): small, as 2 cores run it. */
const BROWSER_PASSAGES = Number(process.env.BENCH_BROWSER_PASSAGES ?? 32);
/** SwiftShader runs WebGPU on the CPU, far slower than WASM here: fewer passages, from the smallest documents. */
const BROWSER_GPU_PASSAGES = Number(process.env.BENCH_BROWSER_GPU_PASSAGES ?? 4);
const BROWSER_ROUNDS = 2;
/** One WebGPU round by default: on SwiftShader one pass over one document takes minutes here. */
const BROWSER_GPU_ROUNDS = Number(process.env.BENCH_BROWSER_GPU_ROUNDS ?? 1);

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ingest-bench-'));
  try {
    const set = writeRealShapedSet(ROOT, join(dir, 'docs'), 'corpus', 120);
    const files = set.documents
      .slice(0, DOCS)
      .map((rel) => ({ name: rel, bytes: new Uint8Array(readFileSync(join(dir, 'docs', rel))) }));
    const prepared: PreparedDocument[] = [];
    for (const f of files) {
      const r = await readAndPrepare(f, { pdf: loadPdfJsInNode });
      if (r.ok) prepared.push(r.doc);
    }
    const words = prepared.flatMap((d) => d.parsed.text.toLowerCase().split(/\W+/)).filter(Boolean);
    let model: BenchModel;
    const real = realEmbedderDir();
    if (real) {
      model = { label: 'REAL all-MiniLM-L6-v2', dir: realModelsDir(), id: REAL.embedder, dtypes: ['fp32', 'q8'] };
      console.log(
        `MODEL: the REAL all-MiniLM-L6-v2 from ${real} (fp32 onnx/model.onnx and q8 onnx/model_quantized.onnx)`,
      );
    } else {
      const t0 = performance.now();
      writeMiniLmShaped(join(dir, 'models'), 'minilm', [...new Set(words)]);
      model = {
        label: 'MiniLM-L6-SHAPED RANDOM WEIGHTS (stand-in)',
        dir: join(dir, 'models'),
        id: 'minilm',
        dtypes: ['fp32'],
      };
      console.log(
        `!!! REAL EMBEDDER ABSENT: measuring a MiniLM-L6-shaped model with random weights (written in ${((performance.now() - t0) / 1000).toFixed(1)} s), fp32 only. ${HOW_TO_FETCH}`,
      );
    }
    // BENCH_INGEST_DTYPES=q8 measures one variant only.
    const only = process.env.BENCH_INGEST_DTYPES?.split(',');
    if (only) model.dtypes = model.dtypes.filter((d) => only.includes(d));

    // BENCH_INGEST=browser skips the Node measurement (BENCH_INGEST=node the browser one).
    if (process.env.BENCH_INGEST !== 'browser')
      for (const dtype of model.dtypes) await nodeRun(model, dtype, files, prepared);
    if (process.env.BENCH_INGEST !== 'node') await browserRuns(dir, model, prepared);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Two significant figures below 1 (SwiftShader WebGPU), one decimal above. */
const rate = (x: number) => (x < 1 ? x.toPrecision(2) : x.toFixed(1));

interface BrowserMode {
  name: string;
  device: 'wasm' | 'webgpu';
  webgpu: boolean;
  isolated: boolean;
  /** Threads for the raw call's onnxruntime-web; undefined: its default. */
  rawThreads?: 'all';
}

const MODES: BrowserMode[] = [
  { name: 'WASM, 1 thread', device: 'wasm', webgpu: false, isolated: false },
  { name: 'WASM, all threads', device: 'wasm', webgpu: false, isolated: true, rawThreads: 'all' },
  { name: 'WebGPU (SwiftShader)', device: 'webgpu', webgpu: true, isolated: false },
];

async function browserRuns(dir: string, model: BenchModel, prepared: PreparedDocument[]): Promise<void> {
  const out = join(dir, 'e2e');
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
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  cpSync(join(model.dir, model.id), join(out, 'models', 'bench', 'minilm'), { recursive: true });

  // Whole documents up to a passage budget, so "pages" is exact and the library embeds document by document.
  const sample = (budget: number, smallestFirst: boolean) => {
    const docs: PreparedDocument[] = [];
    const pool = smallestFirst ? [...prepared].sort((a, b) => a.passages.length - b.passages.length) : prepared;
    for (const d of pool) {
      if (docs.reduce((n, x) => n + x.passages.length, 0) >= budget) break;
      docs.push(d);
    }
    return {
      documents: docs.map((d) => d.passages),
      passages: docs.reduce((n, d) => n + d.passages.length, 0),
      pages: docs.reduce((n, d) => n + d.parsed.text.length, 0) / PAGE_CHARS,
    };
  };
  console.log(
    `\nBrowser (headless Chromium, e2e build; best of ${BROWSER_ROUNDS} alternated runs on WASM, ${BROWSER_GPU_ROUNDS} on WebGPU); model: ${model.label}\n`,
  );
  console.log(
    '| browser path | weights | passages (pages) | crossOriginIsolated | raw / library threads | raw passages/s | library passages/s | raw s per 100 pages | library s per 100 pages | library vs raw |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  // BENCH_BROWSER_MODES=webgpu (a substring of the names, comma-separated) runs only those.
  const only = process.env.BENCH_BROWSER_MODES?.toLowerCase().split(',');
  const runs = MODES.filter((m) => !only || only.some((o) => m.name.toLowerCase().includes(o))).flatMap((mode) =>
    // SwiftShader WebGPU is measured with fp32 only: a q8 pass there takes many minutes on 2 cores.
    (mode.device === 'webgpu' ? model.dtypes.filter((d) => d === 'fp32') : model.dtypes).map((dtype) => ({
      mode,
      dtype,
    })),
  );
  for (const { mode, dtype } of runs) {
    const { documents, passages, pages } =
      mode.device === 'webgpu' ? sample(BROWSER_GPU_PASSAGES, true) : sample(BROWSER_PASSAGES, false);
    const served = await serveDir(
      out,
      mode.isolated
        ? { headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } }
        : {},
    );
    const browser = await launchBrowser({ webgpu: mode.webgpu });
    try {
      const page = await browser.newPage();
      // Progress on stderr: SwiftShader WebGPU runs take minutes.
      page.on('console', (m) => m.text().startsWith('[embed-bench]') && console.error(m.text()));
      page.on('pageerror', (e) => console.error(`[${mode.name}] page error: ${e.message}`));
      await page.goto(`${served.url}test/browser/pages/embed-bench.html`);
      await page.waitForSelector('#status:text("ready")');
      const threads = mode.rawThreads === 'all' ? await page.evaluate(() => navigator.hardwareConcurrency) : undefined;
      const r: EmbedBenchRun = await page.evaluate((a) => window.embedBench(a), {
        device: mode.device,
        dtype,
        model: 'bench/minilm',
        documents,
        rounds: mode.device === 'webgpu' ? BROWSER_GPU_ROUNDS : BROWSER_ROUNDS,
        ...(threads !== undefined ? { rawThreads: threads } : {}),
      });
      if (r.device !== mode.device) throw new Error(`${mode.name}: the evaluator ran on ${r.device}`);
      const rawS = Math.min(...r.rawSeconds);
      const libS = Math.min(...r.librarySeconds);
      console.log(
        `| ${mode.name} | ${dtype} | ${passages} (${pages.toFixed(1)}) | ${r.crossOriginIsolated} | ${mode.device === 'wasm' ? `${r.rawThreads} / ${r.libraryThreads}` : '-'} | ${rate(passages / rawS)} | ${rate(passages / libS)} | ${((rawS / pages) * 100).toFixed(0)} | ${((libS / pages) * 100).toFixed(0)} | ${(rawS / libS).toFixed(2)}× |`,
      );
    } finally {
      await browser.close();
      await served.close();
    }
  }
}

async function nodeRun(
  model: BenchModel,
  dtype: 'fp32' | 'q8',
  files: { name: string; bytes: Uint8Array }[],
  prepared: PreparedDocument[],
): Promise<void> {
  const passages = prepared.flatMap((d) => d.passages);
  const chars = prepared.reduce((n, d) => n + d.parsed.text.length, 0);
  const pages = chars / PAGE_CHARS;
  const embedder = createEmbedder({ model: { id: model.id, dtype }, source: 'local', localModelPath: model.dir });
  const { pipeline, env } = await import('@huggingface/transformers');
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = `${model.dir}/`;
  const raw = (await pipeline('feature-extraction', model.id, { device: 'cpu', dtype })) as unknown as (
    t: string[],
    o: object,
  ) => Promise<unknown>;
  await embedder.embed(['warm up the session']);
  await raw(['warm up the session'], { pooling: 'mean', normalize: true });

  const rawRun = async () => {
    const texts = passages.map(embeddingText);
    const start = performance.now();
    for (let i = 0; i < texts.length; i += DEFAULT_BATCH_SIZE)
      await raw(texts.slice(i, i + DEFAULT_BATCH_SIZE), { pooling: 'mean', normalize: true });
    return (performance.now() - start) / 1000;
  };
  const pipelineRun = async () => {
    const start = performance.now();
    let n = 0;
    for (const f of files) {
      const r = await readAndPrepare(f, { pdf: loadPdfJsInNode });
      if (r.ok) n += (await embedDocument(embedder, r.doc.passages)).passages.length;
    }
    if (n !== passages.length) throw new Error(`the pipeline embedded ${n} passages, expected ${passages.length}`);
    return (performance.now() - start) / 1000;
  };
  // Alternated, best of two each, so machine noise hits both alike.
  const rawTimes: number[] = [];
  const ourTimes: number[] = [];
  for (let i = 0; i < 2; i++) {
    rawTimes.push(await rawRun());
    ourTimes.push(await pipelineRun());
  }
  const rawS = Math.min(...rawTimes);
  const ourS = Math.min(...ourTimes);
  const row = (name: string, s: number) =>
    `| ${name} | ${(passages.length / s).toFixed(1)} | ${((s / pages) * 100).toFixed(1)} | ${(rawS / s).toFixed(2)}× |`;
  console.log(
    `\n${model.label} ${dtype}: ${prepared.length} documents, ${passages.length} passages, ${(chars / 1e6).toFixed(2)} M characters (${pages.toFixed(0)} pages of ${PAGE_CHARS} characters); Node, onnxruntime-node CPU, default threads\n`,
  );
  console.log('| path | passages/s | s per 100 pages | vs raw transformers.js |');
  console.log('| --- | --- | --- | --- |');
  console.log(row('raw transformers.js feature-extraction (embedding only)', rawS));
  console.log(row('library pipeline (read, parse, chunk, embed, check vectors)', ourS));
  await embedder.dispose();
}
