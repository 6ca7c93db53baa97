// Settings and shapes shared by the main-thread client, the evaluator worker and
// the Node indexer. Pure data: no DOM, worker or model-library imports, so the
// worker and Node can import it too.

/**
 * Where model files come from: the Hugging Face hub (cached by the browser), a pack served by the
 * app, or 'auto': the pack when it holds all three models (see pack.ts), else the hub.
 */
export type ModelSource = 'hub' | 'local' | 'auto';

/** Where the models were found, for the UI. */
export interface SourceReport {
  source: 'hub' | 'local';
  reason: string;
  /** The hub model whose weights the local pack's embedder holds, where its manifest names one (pack.ts). */
  embedderIs?: string;
}

/** 'auto' picks WebGPU when an adapter exists, else WASM. */
export type DevicePreference = 'auto' | 'webgpu' | 'wasm';

/**
 * Weight file variant (transformers.js `dtype`): 'fp32' reads `onnx/model.onnx`, 'q8' reads
 * `onnx/model_quantized.onnx`. Left unset, transformers.js picks per device (q8 on wasm, fp32 on webgpu).
 */
export type ModelDtype = 'auto' | 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'q4f16' | 'bnb4';

export interface ModelSpec {
  /** Hub id (`owner/name`) or, with source 'local', the folder name under the model pack. */
  id: string;
  dtype?: ModelDtype;
}

export interface EvaluatorConfig {
  /** Sentence embeddings (pooled as the model's family was trained, see embedderPooling; normalised). */
  embedder: ModelSpec;
  /** Cross-encoder with a single relevance logit, read as a sigmoid probability. */
  reranker: ModelSpec;
  /** NLI classifier; its label order is read from the model's `config.json` `id2label`. */
  nli: ModelSpec;
  /** Where the embedder (and a critic that is not the site's own) comes from. */
  source: ModelSource;
  /**
   * Root of the local model pack. In the browser an absolute PATH (e.g. `/app/models/`), not a
   * full URL: transformers.js silently skips the tokenizer otherwise. In Node a filesystem folder.
   */
  localModelPath?: string;
  /**
   * Root of the critic the site ships (SHIPPED_MODELS_DIR beside the page), resolved as
   * localModelPath is; the shipped models load from here whatever `source` says.
   */
  shippedModelPath?: string;
  /**
   * Folder (URL) serving `ort-wasm-simd-threaded.asyncify.{mjs,wasm}`, to host onnxruntime-web
   * elsewhere. Unset, the worker uses the copies the app's build emits (never a CDN).
   */
  wasmPaths?: string;
  device: DevicePreference;
  /** Texts per model call. */
  batchSize?: number;
  /**
   * CPU threads for the models (onnxruntime-web's WASM threads, onnxruntime-node's intra-op
   * threads). Unset: up to four when the page is cross-origin isolated, else one (see
   * defaultWasmThreads); a page that is not isolated gets one whatever this says.
   */
  threads?: number;
}

export type EvaluatorDevice = 'webgpu' | 'wasm' | 'cpu';

/** Which device the evaluator runs on and why, for the UI. */
export interface DeviceReport {
  device: EvaluatorDevice;
  reason: string;
}

export type EvaluatorModelRole = 'embedder' | 'reranker' | 'nli';

/** Where one model runs and why; `fellBackFrom` is set once WebGPU failed for it and it moved to WASM. */
export interface ModelDeviceReport {
  role: EvaluatorModelRole;
  model: string;
  device: EvaluatorDevice;
  reason: string;
  /** false until the model has loaded on `device`. */
  loaded: boolean;
  fellBackFrom?: 'webgpu';
  /** The WebGPU error that caused the fallback. */
  error?: string;
}

export type EvaluatorDeviceCallback = (report: ModelDeviceReport) => void;

/** Loading progress of one model, aggregated over its files. */
export interface EvaluatorProgress {
  role: EvaluatorModelRole;
  model: string;
  /** 'loading' while files arrive, 'ready' once the model can run. */
  status: 'loading' | 'ready';
  /** File currently being read, when known. */
  file?: string;
  loadedBytes: number;
  /** 0 while sizes are unknown. */
  totalBytes: number;
  filesDone: number;
  filesTotal: number;
}

export type EvaluatorProgressCallback = (progress: EvaluatorProgress) => void;

export const DEFAULT_EMBEDDER = 'Xenova/all-MiniLM-L6-v2';

/**
 * The critic the site ships in its own files (training/critic/: all-MiniLM-L6-v2 read as twin
 * encoders inside one sequence classifier, fine-tuned on documents the labelled questions never
 * use): relevance as one calibrated logit, support as full / partial / none, int8, on WASM, no hub
 * needed. The default: of every critic measured on the labelled questions it judges best
 * (docs/benchmarks-answer.md#who-critiques), and it works offline and where the hub is blocked.
 */
export const SHIPPED_RERANKER = 'selfrag-critic-relevance';
export const SHIPPED_NLI = 'selfrag-critic-support';
/** Folder of the app (relative to its base) that serves the shipped critic. */
export const SHIPPED_MODELS_DIR = 'critic/';
/**
 * The hub's general-purpose judges, chosen with `?critic=hub`: never measured on this project's
 * questions (no machine here reaches the hub).
 */
export const HUB_RERANKER = 'Xenova/ms-marco-MiniLM-L-6-v2';
export const HUB_NLI = 'Xenova/nli-deberta-v3-xsmall';
export const DEFAULT_RERANKER = SHIPPED_RERANKER;
export const DEFAULT_NLI = SHIPPED_NLI;

/** Whether a model id names the critic the site ships (loaded from shippedModelPath, int8, on WASM). */
export function isShippedModel(id: string): boolean {
  return id === SHIPPED_RERANKER || id === SHIPPED_NLI;
}
export const DEFAULT_BATCH_SIZE = 16;

/**
 * WASM threads the models run on when the config does not say: up to four when the page is
 * cross-origin isolated (onnxruntime-web's own default is half the cores: one thread on a 2-core
 * laptop), one otherwise (threads need SharedArrayBuffer). Measured in
 * `npm run bench -- ingest-real` (docs/benchmarks-real.md).
 */
export function defaultWasmThreads(crossOriginIsolated: boolean, cores: number): number {
  return crossOriginIsolated && cores > 1 ? Math.min(4, cores) : 1;
}

/** Folder of the app (relative to its base) that serves local model packs. */
export const LOCAL_MODELS_DIR = 'models/';

export const DEFAULT_EVALUATOR_CONFIG: EvaluatorConfig = {
  embedder: { id: DEFAULT_EMBEDDER },
  reranker: { id: DEFAULT_RERANKER, dtype: 'q8' },
  nli: { id: DEFAULT_NLI, dtype: 'q8' },
  source: 'auto',
  device: 'auto',
  batchSize: DEFAULT_BATCH_SIZE,
};

export type EvaluatorConfigInput = Partial<Omit<EvaluatorConfig, 'embedder' | 'reranker' | 'nli'>> & {
  embedder?: ModelSpec | string;
  reranker?: ModelSpec | string;
  nli?: ModelSpec | string;
};

function spec(value: ModelSpec | string | undefined, fallback: ModelSpec): ModelSpec {
  if (value === undefined) return fallback;
  const s = typeof value === 'string' ? { id: value } : value;
  if (!s.id.trim()) throw new Error('Evaluator config: a model id is empty.');
  // The shipped critic exists only as int8.
  return isShippedModel(s.id) ? { ...s, dtype: 'q8' } : s;
}

/**
 * A complete config for the browser, with the local model path resolved against the page's
 * base URI (so the app works from any sub-path). Call on the main thread
 * with `document.baseURI`.
 */
export function resolveEvaluatorConfig(input: EvaluatorConfigInput, baseURI: string): EvaluatorConfig {
  const base = new URL(baseURI);
  return {
    ...DEFAULT_EVALUATOR_CONFIG,
    ...input,
    embedder: spec(input.embedder, DEFAULT_EVALUATOR_CONFIG.embedder),
    reranker: spec(input.reranker, DEFAULT_EVALUATOR_CONFIG.reranker),
    nli: spec(input.nli, DEFAULT_EVALUATOR_CONFIG.nli),
    localModelPath: input.localModelPath ?? new URL(LOCAL_MODELS_DIR, base).pathname,
    shippedModelPath: input.shippedModelPath ?? new URL(SHIPPED_MODELS_DIR, base).pathname,
  };
}

/** What an embedder wants in front of a search query and of a passage (most want nothing). */
export interface EmbedderPrefixes {
  query: string;
  passage: string;
}

export const BGE_EN_QUERY = 'Represent this sentence for searching relevant passages: ';
export const BGE_ZH_QUERY = '为这个句子生成表示以用于检索相关文章：';

/**
 * Read from the model's name, as each family's model card prescribes: e5 was trained with
 * "query: " / "passage: " on every input; bge v1/v1.5 with an instruction on short queries
 * only (bge-m3 needs none); nomic-embed with task prefixes. Vectors made without them are
 * measurably worse, and vectors made with another family's are wrong.
 */
export function embedderPrefixes(modelId: string): EmbedderPrefixes {
  const name = modelId.toLowerCase().split('/').pop() ?? '';
  if (/(^|[-_])e5([-_]|$)/.test(name)) return { query: 'query: ', passage: 'passage: ' };
  if (name.startsWith('bge-') && !name.startsWith('bge-m3') && !name.includes('reranker')) {
    return { query: /-zh/.test(name) ? BGE_ZH_QUERY : BGE_EN_QUERY, passage: '' };
  }
  if (name.startsWith('nomic-embed-text')) return { query: 'search_query: ', passage: 'search_document: ' };
  return { query: '', passage: '' };
}

/** How token vectors become one sentence vector: their mean, or the first ([CLS]) token's. */
export type EmbedderPooling = 'mean' | 'cls';

/**
 * Read from the model's name, as each family's sentence-transformers config sets it: bge (v1,
 * v1.5, m3), Snowflake's arctic-embed and mixedbread's mxbai-embed take the [CLS] token; MiniLM,
 * e5, gte, nomic-embed and most others the mean. The other pooling gives vectors that still look
 * like embeddings but retrieve measurably worse.
 */
export function embedderPooling(modelId: string): EmbedderPooling {
  const name = modelId.toLowerCase().split('/').pop() ?? '';
  if (/^(bge-|snowflake-arctic-embed|arctic-embed|mxbai-embed)/.test(name) && !name.includes('reranker')) return 'cls';
  return 'mean';
}
