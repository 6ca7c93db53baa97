// llama.cpp's (wllama's) errors in the shared kinds of ../errors.ts. Runs in the wllama
// worker (workers/wllama/host.ts sends the result across as plain data, see toWire) and
// again on the page for what the page itself sees (a crashed worker, a lost reply).
import { classifyError, fromWire, GeneratorError, toWire, type WireError } from '../errors';

/** wllama's own error types (WllamaError.type in @wllama/wllama). */
const BY_TYPE: Record<string, (text: string) => GeneratorError> = {
  load_error: (t) => badModel(t),
  download_error: (t) => classifyError(new Error(`download failed: ${t}`)),
  kv_cache_full: (t) =>
    new GeneratorError(
      'context-too-long',
      'The question, answer so far and passage are longer than the model can read at once.',
      'Use smaller chunks or fewer passages per step, or a shorter question.',
      t,
    ),
};

/** `during` load, llama.cpp's bare "(ABORT)" means the model file could not be read. */
export function wllamaError(err: unknown, during: 'load' | 'decode' = 'decode'): GeneratorError {
  const wired = fromWire(err);
  if (wired instanceof GeneratorError) return wired;
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const type = (err as { type?: unknown } | null)?.type;
  if (typeof type === 'string' && BY_TYPE[type]) return BY_TYPE[type](text);
  // wllama 3.8.1 fails on a reply whose bytes are not valid UTF-8 while decoding it.
  if (/Invalid typed array length|JSON|Unexpected token|Bad control character|Unterminated string/i.test(text)) {
    return new GeneratorError(
      'malformed-output',
      'The model wrote bytes that are not valid text (invalid UTF-8).',
      'Retry, or choose another model. Evidence-only mode does not need the model.',
      text,
    );
  }
  const e = classifyError(err);
  if (e.kind !== 'unknown' || during !== 'load') return e;
  // wllama reports a failed load as a bare "(ABORT)"; the worker appends llama.cpp's own words.
  if (/compat|JSPI|Memory64|memory64/i.test(text)) {
    return new GeneratorError(
      'no-webgpu',
      'This browser cannot run llama.cpp here: it lacks WebAssembly Memory64 or JSPI.',
      'Use a recent Chrome or Edge, or evidence-only mode.',
      text,
    );
  }
  if (/gguf|magic|tensor|vocab|failed to load model|ABORT/i.test(text)) return badModel(text);
  return e;
}

function badModel(text: string): GeneratorError {
  return new GeneratorError(
    'bad-config',
    'The GGUF model could not be loaded (the file is damaged, incomplete or not a model llama.cpp knows).',
    'Choose another model, download it again, or use evidence-only mode.',
    text,
  );
}

/**
 * What the worker throws: the error sorted into a shared kind, as plain data (comlink
 * would keep only an Error's name and message, losing wllama's type). `detail` is
 * llama.cpp's own log lines, which a failed load reports only to the logger.
 */
export function errorForWire(e: unknown, during: 'load' | 'decode', detail = ''): WireError {
  if (!detail || !(e instanceof Error)) return toWire(wllamaError(e, during));
  const withDetail = Object.assign(new Error(`${e.message || String(e)}${detail}`), {
    type: (e as { type?: unknown }).type,
  });
  withDetail.name = e.name;
  return toWire(wllamaError(withDetail, during));
}
