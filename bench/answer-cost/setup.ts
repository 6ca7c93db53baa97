// What bench/answer-cost.bench.ts and bench/isrel.bench.ts share: the sample library and
// questions, the real MiniLM (q8, as the browser embeds on WASM) behind a retriever and a
// relevance function exposed to the page, the tiny cross-encoder stand-in beside it, and
// the page itself (built once, served cross-origin isolated so llama.cpp may use 2 threads).
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { chunkText } from '../../src/core/chunk';
import type { Passage, ScoredPassage } from '../../src/core/ports';
import { embeddingText } from '../../src/library/ingest';
import { createEmbedder } from '../../workers/evaluator/embedder';
import { createReranker } from '../../workers/evaluator/reranker';
import { makeTinyModels, tinyModelsStale, TINY_MODEL_IDS } from '../../scripts/make-tiny-models';
import { HOW_TO_FETCH, REAL, realModelsDir } from '../../scripts/real-models/catalogue';
import { launchBrowser, OUTPUT_DIR, serveDir } from '../../test/browser/harness';
import { questionSet } from '../../test/real/question-set';
import { setLibrary } from '../answers/node-library';
import { cpuSeconds } from './cpu';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const PAGE = 'test/browser/pages/answer-cost.html';
const ISOLATED = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

export interface Question {
  id: string;
  question: string;
  answers: string[];
}

export function library(): Passage[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'public/sample/manifest.json'), 'utf8')) as {
    documents: { file: string; title: string }[];
  };
  return manifest.documents.flatMap((d) =>
    chunkText({ docId: d.file, title: d.title, text: readFileSync(join(ROOT, 'public/sample', d.file), 'utf8') }),
  );
}

/** The sample questions answered from the sample library (the off-corpus ones bring their own documents). */
export function questions(): Question[] {
  return readFileSync(join(ROOT, 'public/eval/sample-questions.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Question & { documents?: unknown })
    .filter((q) => !q.documents);
}

/** A gold answer as whole words (so 'Arc' is not found in 'search'), case-insensitive. */
export const containsAnswer = (text: string, q: Question): boolean =>
  q.answers.some((a) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'iu').test(text),
  );

/** Real MiniLM cosine → a relevance probability: a logistic centred between the labelled classes (bench/isrel.bench.ts measures them). */
export const MINILM_CENTRE = 0.45;
export const MINILM_SCALE = 0.06;
export const cosineToProbability = (c: number): number => 1 / (1 + Math.exp(-(c - MINILM_CENTRE) / MINILM_SCALE));

export interface Models {
  passages: Passage[];
  vectors: Float32Array[];
  embed(texts: string[]): Promise<Float32Array[]>;
  retrieve(query: string, k: number): Promise<ScoredPassage[]>;
  cosines(question: string, texts: string[]): Promise<number[]>;
  relevance(question: string, texts: string[], model: string): Promise<number[]>;
}

/**
 * The labelled real question set (test split, every n-th question so each kind of document keeps
 * its share) over its own library: the questions the accuracy table answers.
 */
export function setQuestions(n: number): Question[] {
  const test = questionSet().questions.filter((q) => q.split === 'test');
  const k = Math.min(n, test.length);
  return Array.from({ length: k }, (_, i) => test[Math.floor((i * test.length) / k)]!).map((q) => ({
    id: q.id,
    question: q.question,
    answers: q.answers,
  }));
}

/** Models over the real set's library (bench/answers/node-library.ts): retrieval as the accuracy table's. */
export async function loadSetModels(): Promise<Models> {
  const models = await loadModels();
  const lib = await setLibrary(console.log);
  const retriever = lib.retriever();
  return {
    ...models,
    cosines: (q, texts) => lib.cosines(q, texts),
    retrieve: (q, k) => retriever.retrieve(q, k),
    async relevance(question, texts, model) {
      if (model === 'minilm') return (await lib.cosines(question, texts)).map(cosineToProbability);
      return models.relevance(question, texts, model);
    },
  };
}

export async function loadModels(): Promise<Models> {
  const dir = realModelsDir();
  if (!existsSync(join(dir, REAL.embedder, 'onnx/model_quantized.onnx')))
    throw new Error(`The real MiniLM is missing from ${dir}. ${HOW_TO_FETCH}`);
  if (tinyModelsStale()) makeTinyModels();
  const embedder = createEmbedder({ source: 'local', localModelPath: dir, model: { id: REAL.embedder, dtype: 'q8' } });
  const reranker = createReranker({
    source: 'local',
    localModelPath: join(ROOT, 'test/fixtures/models'),
    model: { id: TINY_MODEL_IDS.reranker, dtype: 'fp32' },
  });
  const passages = library();
  console.log(`[bench] embedding ${passages.length} sample passages with the real MiniLM (q8)`);
  const vectors = await embedder.embed(passages.map(embeddingText));
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
  const embed = (texts: string[]) => embedder.embed(texts);
  // The question alone and the passages apart, as the app embeds them: q8 activations are
  // quantised per batch, so a short question padded beside a long passage comes out different.
  const cosines = async (question: string, texts: string[]) => {
    const [q] = await embed([question]);
    const ts = await embed(texts);
    return ts.map((t) => dot(q!, t));
  };
  return {
    passages,
    vectors,
    embed,
    cosines,
    async retrieve(query, k) {
      const [q] = await embed([query]);
      return passages
        .map((p, i): ScoredPassage => ({ ...p, score: dot(q!, vectors[i]!) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, k);
    },
    async relevance(question, texts, model) {
      if (model === 'minilm') return (await cosines(question, texts)).map(cosineToProbability);
      if (model === 'tiny-reranker') return reranker.score(question, texts);
      throw new Error(`unknown relevance model ${model}`);
    },
  };
}

export interface BenchPage {
  page: Page;
  call<T>(fn: string, ...args: unknown[]): Promise<T>;
  close(): Promise<void>;
}

/** Builds and opens the bench page with the models' functions exposed, the real GGUFs copied beside it. */
export async function openPage(models: Models, name = 'answer-cost-bench'): Promise<BenchPage> {
  // One folder per bench: two benches running at once must not empty each other's build.
  const OUT = join(OUTPUT_DIR, name);
  await build({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'error',
    build: { outDir: OUT, emptyOutDir: true, rollupOptions: { input: { ac: join(ROOT, PAGE) } } },
  });
  mkdirSync(join(OUT, 'models/gguf'), { recursive: true });
  for (const g of [REAL.smollm2, REAL.gemma, REAL.qwen05])
    if (existsSync(join(realModelsDir(), g))) cpSync(join(realModelsDir(), g), join(OUT, 'models', g));
  console.log('[bench] page built');
  const served = await serveDir(OUT, { headers: ISOLATED });
  const browser = await launchBrowser({ webgpu: false });
  const page = await browser.newPage();
  page.setDefaultTimeout(0);
  page.on(
    'console',
    (m) =>
      (m.type() === 'error' || m.type() === 'warning') && console.log(`[page ${m.type()}] ${m.text().slice(0, 300)}`),
  );
  page.on('pageerror', (e) => console.log(`[page error] ${e.message}`));
  await page.exposeFunction('benchCpu', () => cpuSeconds());
  await page.exposeFunction('benchRetrieve', (q: string, k: number) => models.retrieve(q, k));
  await page.exposeFunction('benchRelevance', (q: string, texts: string[], model: string) =>
    models.relevance(q, texts, model),
  );
  await page.goto(`${served.url}${PAGE}`);
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'loaded');
  type Api = Record<string, (...a: unknown[]) => Promise<unknown>>;
  return {
    page,
    call: <T>(fn: string, ...args: unknown[]) =>
      page.evaluate(([f, a]) => (window as unknown as { ac: Api }).ac[f as string]!(...(a as unknown[])), [
        fn,
        args,
      ] as const) as Promise<T>,
    async close() {
      await browser.close();
      await served.close();
    },
  };
}

export const modelUrl = (gguf: string): string => `../../../models/${gguf}`;
