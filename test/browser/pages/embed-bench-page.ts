// E2E-only page (built with --mode e2e) for bench/ingest.bench.ts: the same model
// embeds the same passages in the same batches two ways, alternately, in one page:
// (a) raw: transformers.js `feature-extraction` called here on the page's thread;
// (b) the library: `embedDocument` (prefix titles, embed, check every vector) through
// the real evaluator client and worker. The model is served from <build>/models/.
// `raw: false` measures the library alone (bench/ingest-real.bench.ts: threads, batch sizes,
// weights, models), with the cost of the first load: worker start, model files, first call.
import { env, pipeline } from '@huggingface/transformers';
import type { Passage } from '../../../src/core/ports';
import { createEvaluator } from '../../../src/evaluator/client';
import { DEFAULT_BATCH_SIZE, defaultWasmThreads, resolveEvaluatorConfig } from '../../../src/evaluator/config';
import { embedDocument, embeddingText } from '../../../src/library/ingest';
import { ortWasmFiles } from '../../../workers/evaluator/ort-files';

const APP_BASE = new URL('../../../', document.baseURI).href;

export interface EmbedBenchRun {
  device: string;
  crossOriginIsolated: boolean;
  /** onnxruntime-web threads the raw call ran with (the page's ORT instance). */
  rawThreads: number;
  /**
   * Threads the evaluator worker's onnxruntime-web picks: the library leaves `numThreads` at
   * What workers/evaluator/runtime.ts asks of ORT: 1 unless cross-origin isolated, else min(4, cores).
   */
  libraryThreads: number;
  rawSeconds: number[];
  librarySeconds: number[];
  passages: number;
  /** From creating the evaluator to its first vector: worker, ORT, model files, session. */
  firstLoadSeconds: number;
}

type Extractor = (texts: string[], o: { pooling: 'mean' | 'cls'; normalize: boolean }) => Promise<unknown>;

async function run(opts: {
  device: 'wasm' | 'webgpu';
  model: string;
  documents: Passage[][];
  rounds: number;
  rawThreads?: number;
  dtype?: 'fp32' | 'q8';
  /** The library's threads and batch size (EvaluatorConfig); unset, the app's defaults. */
  threads?: number;
  batchSize?: number;
  /** False: the library only, no raw call on the page's thread. */
  raw?: boolean;
}): Promise<EmbedBenchRun> {
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = new URL('models/', APP_BASE).pathname;
  const wasm = env.backends.onnx.wasm!;
  wasm.wasmPaths = { ...ortWasmFiles };
  if (opts.rawThreads !== undefined) wasm.numThreads = opts.rawThreads;
  const withRaw = opts.raw !== false;
  // Unset, transformers.js picks the weights per device (q8 on wasm, fp32 on webgpu).
  const raw = withRaw
    ? ((await pipeline('feature-extraction', opts.model, {
        device: opts.device,
        ...(opts.dtype ? { dtype: opts.dtype } : {}),
      })) as unknown as Extractor)
    : null;

  const config = resolveEvaluatorConfig(
    {
      source: 'local',
      device: opts.device,
      embedder: { id: opts.model, ...(opts.dtype ? { dtype: opts.dtype } : {}) },
      reranker: 'tiny/reranker',
      nli: 'tiny/nli',
      ...(opts.threads !== undefined ? { threads: opts.threads } : {}),
      ...(opts.batchSize !== undefined ? { batchSize: opts.batchSize } : {}),
    },
    APP_BASE,
  );
  const loadStart = performance.now();
  const evaluator = await createEvaluator(config);
  try {
    await evaluator.preload(['embedder']);
    await evaluator.embedder.embed(['warm up the session']);
    const firstLoadSeconds = (performance.now() - loadStart) / 1000;
    await raw?.(['warm up the session'], { pooling: 'mean', normalize: true });
    console.log('[embed-bench] both paths warm');
    const total = opts.documents.reduce((n, d) => n + d.length, 0);

    const rawRun = async () => {
      if (!raw) return 0;
      const start = performance.now();
      for (const doc of opts.documents) {
        const texts = doc.map(embeddingText);
        const step = opts.batchSize ?? DEFAULT_BATCH_SIZE;
        for (let i = 0; i < texts.length; i += step)
          await raw(texts.slice(i, i + step), { pooling: 'mean', normalize: true });
      }
      return (performance.now() - start) / 1000;
    };
    const libraryRun = async () => {
      const start = performance.now();
      let n = 0;
      for (const doc of opts.documents) n += (await embedDocument(evaluator.embedder, doc)).passages.length;
      if (n !== total) throw new Error(`the library embedded ${n} passages, expected ${total}`);
      return (performance.now() - start) / 1000;
    };
    // Alternated so machine noise hits both alike.
    const rawSeconds: number[] = [];
    const librarySeconds: number[] = [];
    const note = (what: string, s: number) => console.log(`[embed-bench] ${opts.device} ${what} ${s.toFixed(1)} s`);
    for (let i = 0; i < opts.rounds; i++) {
      if (raw) {
        rawSeconds.push(await rawRun());
        note('raw', rawSeconds.at(-1)!);
      }
      librarySeconds.push(await libraryRun());
      note('library', librarySeconds.at(-1)!);
    }
    return {
      device: evaluator.device.device,
      crossOriginIsolated: self.crossOriginIsolated,
      rawThreads: wasm.numThreads ?? 0,
      libraryThreads: self.crossOriginIsolated
        ? (opts.threads ?? defaultWasmThreads(true, navigator.hardwareConcurrency))
        : 1,
      rawSeconds,
      librarySeconds,
      passages: total,
      firstLoadSeconds,
    };
  } finally {
    evaluator.dispose();
  }
}

declare global {
  interface Window {
    embedBench: typeof run;
  }
}
window.embedBench = run;
document.getElementById('status')!.textContent = 'ready';
