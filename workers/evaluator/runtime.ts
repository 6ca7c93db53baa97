// Shared plumbing for the evaluator adapters: lazy transformers.js import, its
// environment (where models and ORT wasm come from), progress aggregation and
// load errors that name the model. Works in the worker and in Node.
import {
  defaultWasmThreads,
  isShippedModel,
  type EvaluatorDevice,
  type EvaluatorModelRole,
  type EvaluatorProgressCallback,
  type ModelSource,
  type ModelSpec,
} from '../../src/evaluator/config';
import { errorMessage } from '../../src/core/errors';

export type Transformers = typeof import('@huggingface/transformers');

export interface RuntimeOptions {
  source: ModelSource;
  /** Browser: absolute path of the model pack; Node: a folder. Required with source 'local'. */
  localModelPath?: string;
  /** Browser: absolute path of the critic the site ships; Node: a folder (public/critic). Required for a shipped model. */
  shippedModelPath?: string;
  /**
   * Browser only: where the ORT wasm files are, either a folder holding
   * `ort-wasm-simd-threaded.asyncify.{mjs,wasm}` or the two URLs.
   */
  wasmPaths?: string | { mjs: string; wasm: string };
  /** Resolved device; Node uses 'cpu' (onnxruntime-node). */
  device?: EvaluatorDevice;
  batchSize?: number;
  /** CPU threads (see EvaluatorConfig.threads); unset, defaultWasmThreads in the browser and ORT's own in Node. */
  threads?: number;
  onProgress?: EvaluatorProgressCallback;
  /** Browser only: the model cache to use instead of this worker's Cache Storage (the app site's, relayed). */
  cache?: {
    match(key: string): Promise<Response | undefined>;
    put(
      key: string,
      res: Response,
      progress?: (p: { progress: number; loaded: number; total: number }) => void,
    ): Promise<void>;
  };
}

/** The onnxruntime-web build transformers.js loads on web (its WebGPU bundle) pairs with the asyncify wasm (see ort-files.ts). */
export const ORT_WASM_FILES = {
  mjs: 'ort-wasm-simd-threaded.asyncify.mjs',
  wasm: 'ort-wasm-simd-threaded.asyncify.wasm',
} as const;

const isNode =
  typeof process !== 'undefined' &&
  !!process.versions?.node &&
  typeof window === 'undefined' &&
  typeof self === 'undefined';

let loaded: Promise<Transformers> | undefined;

/**
 * Imported lazily: a top-level await in the worker's import graph makes comlink calls hang. Sets
 * transformers.js' (global) environment for `model`: call it inside `loading`, which lets one
 * model load at a time, so two models from two places never share one setting.
 */
export async function transformers(opts: RuntimeOptions, model: string): Promise<Transformers> {
  loaded ??= isNode ? import('@huggingface/transformers') : importWeb();
  const t = await loaded;
  configure(t, placeOf(opts, model));
  if (!isNode && opts.cache) {
    t.env.useCustomCache = true;
    t.env.customCache = opts.cache as typeof t.env.customCache;
    return t;
  }
  // A cross-site frame with storage blocked: Cache Storage throws, and transformers.js would try
  // (and warn) for every file. Fetch without a cache instead; the files download again next visit.
  if (!isNode && t.env.useBrowserCache && !(await cacheStorageWorks())) t.env.useBrowserCache = false;
  return t;
}

async function cacheStorageWorks(): Promise<boolean> {
  try {
    await globalThis.caches.has('selfrag-probe');
    return true;
  } catch {
    return false;
  }
}

/** In the browser, every ORT session call goes through one queue (see ort-serial.ts). */
async function importWeb(): Promise<Transformers> {
  const [t, ort, { serialiseOrt }] = await Promise.all([
    import('@huggingface/transformers'),
    import('onnxruntime-web/webgpu'),
    import('./ort-serial'),
  ]);
  if (!serialiseOrt(ort, t.env.backends.onnx)) {
    console.warn('transformers.js does not share this onnxruntime-web instance: ORT session calls are not serialised.');
  }
  return t;
}

/** The shipped critic loads from the site's own folder, whatever the other models' source. */
function placeOf(opts: RuntimeOptions, model: string): RuntimeOptions {
  if (!isShippedModel(model)) return opts;
  if (!opts.shippedModelPath)
    throw new Error(`Evaluator config: "${model}" ships with the site and needs shippedModelPath.`);
  return { ...opts, source: 'local', localModelPath: opts.shippedModelPath };
}

function configure(t: Transformers, opts: RuntimeOptions): void {
  const env = t.env;
  if (opts.source === 'auto') {
    throw new Error(
      'Evaluator config: source "auto" must be resolved to "local" or "hub" first (resolveModelSource in src/evaluator/pack.ts).',
    );
  }
  if (opts.source === 'local') {
    if (!opts.localModelPath) throw new Error('Evaluator config: source "local" needs localModelPath.');
    env.allowLocalModels = true;
    env.allowRemoteModels = false;
    env.localModelPath = opts.localModelPath.endsWith('/') ? opts.localModelPath : `${opts.localModelPath}/`;
  } else {
    env.allowLocalModels = false;
    env.allowRemoteModels = true;
  }
  const wasm = env.backends.onnx.wasm;
  // onnxruntime-web's own default is half the cores when the page is cross-origin isolated (one
  // thread on a 2-core laptop). Use up to four cores, as the llama.cpp engine does, and leave the
  // rest to the page; threads only work in an isolated page. Read once per worker: ORT's WASM
  // module starts with the first session.
  const cores = typeof navigator === 'undefined' ? 0 : (navigator.hardwareConcurrency ?? 0);
  const isolated = !!(globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  if (wasm && !isNode) wasm.numThreads = isolated ? (opts.threads ?? defaultWasmThreads(isolated, cores)) : 1;
  if (opts.wasmPaths && wasm) {
    if (typeof opts.wasmPaths === 'string') {
      const dir = opts.wasmPaths.endsWith('/') ? opts.wasmPaths : `${opts.wasmPaths}/`;
      wasm.wasmPaths = { mjs: dir + ORT_WASM_FILES.mjs, wasm: dir + ORT_WASM_FILES.wasm };
    } else {
      wasm.wasmPaths = { ...opts.wasmPaths };
    }
  }
}

/** The shipped critic is int8, which runs on WASM (the client routes it to a WASM worker too). */
export function runtimeDevice(opts: RuntimeOptions, model?: string): EvaluatorDevice {
  if (isNode) return opts.device ?? 'cpu';
  return model && isShippedModel(model) ? 'wasm' : (opts.device ?? 'wasm');
}

export type LoadOptions = ReturnType<typeof loadOptions>;

/** Options common to every `from_pretrained` / `pipeline` call of one model. */
export function loadOptions(model: ModelSpec, opts: RuntimeOptions, progress: ReturnType<typeof progressReporter>) {
  const dtype = isShippedModel(model.id) ? 'q8' : model.dtype;
  return {
    device: runtimeDevice(opts, model.id),
    ...(dtype && dtype !== 'auto' ? { dtype } : {}),
    // onnxruntime-node takes its threads per session (the browser's are set on the WASM backend).
    ...(isNode && opts.threads ? { session_options: { intraOpNumThreads: opts.threads } } : {}),
    progress_callback: progress,
  };
}

type ProgressInfo = Parameters<NonNullable<Parameters<Transformers['pipeline']>[2]>['progress_callback'] & {}>[0];

/** Folds transformers.js per-file events into one running total per model (bytes and files). */
export function progressReporter(role: EvaluatorModelRole, model: string, onProgress?: EvaluatorProgressCallback) {
  const files = new Map<string, { loaded: number; total: number; done: boolean }>();
  const emit = (status: 'loading' | 'ready', file?: string) => {
    if (!onProgress) return;
    let loadedBytes = 0;
    let totalBytes = 0;
    let filesDone = 0;
    for (const v of files.values()) {
      loadedBytes += v.loaded;
      totalBytes += v.total;
      if (v.done) filesDone++;
    }
    onProgress({
      role,
      model,
      status,
      ...(file ? { file } : {}),
      loadedBytes,
      totalBytes,
      filesDone,
      filesTotal: files.size,
    });
  };
  const callback = (info: ProgressInfo) => {
    if (!('file' in info)) return;
    const f = files.get(info.file) ?? { loaded: 0, total: 0, done: false };
    files.set(info.file, f);
    if (info.status === 'progress') {
      f.loaded = info.loaded;
      f.total = info.total;
    } else if (info.status === 'done') {
      f.done = true;
      f.loaded = Math.max(f.loaded, f.total);
    }
    emit('loading', info.file);
  };
  return Object.assign(callback, { ready: () => emit('ready') });
}

const ROLE_NAMES: Record<EvaluatorModelRole, string> = {
  embedder: 'embedding',
  reranker: 'relevance (cross-encoder)',
  nli: 'support (NLI)',
};

/** One model loads at a time: transformers.js' environment (where files come from) is global. */
let loadQueue: Promise<unknown> = Promise.resolve();

/** Runs a model load, turning any failure into an error that names the model and where it was looked for. */
export async function loading<T>(
  role: EvaluatorModelRole,
  model: ModelSpec,
  opts: RuntimeOptions,
  load: (options: ReturnType<typeof loadOptions>) => Promise<T>,
): Promise<T> {
  const progress = progressReporter(role, model.id, opts.onProgress);
  const turn = loadQueue.then(() => load(loadOptions(model, opts, progress)));
  loadQueue = turn.catch(() => undefined);
  try {
    const value = await turn;
    progress.ready();
    return value;
  } catch (e) {
    const place = placeOf(opts, model.id);
    const where = isShippedModel(model.id)
      ? `the site's own critic at ${place.localModelPath ?? '?'}`
      : place.source === 'local'
        ? `the local model pack at ${place.localModelPath ?? '?'}`
        : 'the Hugging Face hub';
    const reason = errorMessage(e);
    // fetch's own words for a host it cannot reach ("Failed to fetch" in Chromium) say nothing of where.
    const unreachable =
      e instanceof TypeError && /fetch|network/i.test(reason)
        ? `; ${where} cannot be reached from this network, or the browser is offline`
        : '';
    throw new Error(
      `Could not load the ${ROLE_NAMES[role]} model "${model.id}" from ${where}: ${reason}${unreachable}`,
    );
  }
}

export function batches<T>(items: T[], size: number): T[][] {
  const n = Math.max(1, Math.floor(size));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}

export const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export function softmax(row: ArrayLike<number>): number[] {
  let max = -Infinity;
  for (let i = 0; i < row.length; i++) max = Math.max(max, row[i]!);
  const exps = Array.from(row, (x) => Math.exp(x - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((x) => x / sum);
}

/** Rows of a [n, cols] tensor's data as plain numbers. */
export function rows(data: ArrayLike<number>, n: number): number[][] {
  const cols = data.length / n;
  return Array.from({ length: n }, (_, i) => Array.from({ length: cols }, (_, j) => Number(data[i * cols + j])));
}
