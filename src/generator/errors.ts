// Everything that can go wrong with the generator, sorted into what the user can
// do about it. web-llm's worker sends errors as plain strings, so classification
// works on the message text; each kind carries a way forward for the UI.

import { isAbort } from '../core/errors';

export type GeneratorErrorKind =
  | 'no-webgpu'
  | 'out-of-memory'
  | 'download'
  | 'device-lost'
  | 'crashed'
  | 'context-too-long'
  | 'cancelled'
  | 'malformed-output'
  | 'bad-config'
  | 'unknown';

export class GeneratorError extends Error {
  override readonly name = 'GeneratorError';
  constructor(
    readonly kind: GeneratorErrorKind,
    message: string,
    /** What the user can do next, in plain words. */
    readonly suggestion: string,
    /** The engine's own message, for the details disclosure. */
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** Errors after which the loaded model is gone: the handle unloads and reports 'failed'. */
export function isFatal(e: GeneratorError): boolean {
  return e.kind === 'device-lost' || e.kind === 'out-of-memory' || e.kind === 'crashed';
}

/** A worker that died on its own (often out of memory); its calls in flight would never settle. */
export function workerCrashed(worker: string, detail: string): GeneratorError {
  return new GeneratorError(
    'crashed',
    `The ${worker} worker stopped (often because it ran out of memory).`,
    'Retry; if it happens again, choose a smaller model, close other tabs, or use evidence-only mode.',
    detail,
  );
}

/** A GeneratorError as plain data, so its kind survives a worker boundary (structured clone drops class and fields). */
export interface WireError {
  generatorError: { kind: GeneratorErrorKind; message: string; suggestion: string; detail?: string };
}

export function toWire(e: GeneratorError): WireError {
  return {
    generatorError: {
      kind: e.kind,
      message: e.message,
      suggestion: e.suggestion,
      ...(e.detail !== undefined ? { detail: e.detail } : {}),
    },
  };
}

export function fromWire(err: unknown): unknown {
  const w = (err as Partial<WireError> | null)?.generatorError;
  return w && typeof w.kind === 'string' ? new GeneratorError(w.kind, w.message, w.suggestion, w.detail) : err;
}

const RULES: { kind: GeneratorErrorKind; test: RegExp; message: string; suggestion: string }[] = [
  {
    kind: 'no-webgpu',
    test: /WebGPU is not supported|Cannot find WebGPU|navigator\.gpu|requestAdapter|no (WebGPU )?adapter/i,
    message: 'This browser cannot run the language model: WebGPU is not available.',
    suggestion:
      'Use a recent Chrome or Edge (or enable WebGPU in your browser), or switch to evidence-only mode, which needs no language model.',
  },
  {
    kind: 'device-lost',
    // After a lost device web-llm unloads the model itself, so the next call reports it not loaded.
    test: /device (was |is )?lost|DeviceLost|GPUDevice.*destroyed|Instance reference no longer exists|dispose|Model not loaded before|is not loaded with a model/i,
    message: 'The GPU stopped responding while the model was running (often because it ran out of memory).',
    suggestion:
      'Retry; if it happens again, choose a smaller model, close other GPU-heavy tabs, or use evidence-only mode.',
  },
  {
    kind: 'out-of-memory',
    test: /out of memory|OOM|allocat\w* .*fail|Failed to allocate|maxStorageBufferBindingSize|exceeds the max|RangeError: Array buffer allocation|QuotaExceeded/i,
    message: 'There is not enough GPU memory or storage for this model.',
    suggestion:
      'Choose a smaller model (e.g. Qwen2.5 0.5B), close other tabs, free browser storage, or use evidence-only mode.',
  },
  {
    kind: 'context-too-long',
    test: /exceed context window|ContextWindowSizeExceeded|Prompt tokens exceed/i,
    message: 'The question, answer so far and passage are longer than the model can read at once.',
    suggestion: 'Use smaller chunks or fewer passages per step, or a shorter question.',
  },
  {
    kind: 'download',
    test: /Failed to fetch|NetworkError|fetch|network|404|403|CORS|Load failed|Cannot find model record|net::|ERR_/i,
    message: 'The model files could not be downloaded.',
    suggestion: 'Check the connection and try again, or choose a smaller model.',
  },
];

/** Turns anything thrown by web-llm (often a bare string from the worker) into a GeneratorError. */
export function classifyError(err: unknown): GeneratorError {
  if (err instanceof GeneratorError) return err;
  if (isAbort(err)) return new GeneratorError('cancelled', 'Cancelled.', 'Start again when ready.');
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  for (const rule of RULES) {
    if (rule.test.test(text)) return new GeneratorError(rule.kind, rule.message, rule.suggestion, text);
  }
  return new GeneratorError(
    'unknown',
    `The language model failed: ${text.slice(0, 300)}`,
    'Retry; if it keeps failing, choose another model or use evidence-only mode.',
    text,
  );
}

export function abortError(): DOMException {
  return new DOMException('The generation was aborted.', 'AbortError');
}
