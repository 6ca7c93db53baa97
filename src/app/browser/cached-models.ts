// Which models this browser holds for offline use, read from the caches the model libraries fill
// themselves: transformers.js' `transformers-cache` (evaluator models, from the hub or a local pack),
// web-llm's `webllm/model` (generator weights) and llama.cpp's GGUF files in OPFS (kept-gguf.ts).
// Loaded when the offline panel's store first refreshes (wiring/offline-panel.ts), not with the first screen.
import type { CachedModels } from '../state/offline-inventory';
import { listKeptGguf } from './kept-gguf';

export const TRANSFORMERS_CACHE = 'transformers-cache';
export const WEBLLM_MODEL_CACHE = 'webllm/model';

/** The model id a cached evaluator file belongs to, or null for a file that is not ONNX weights. */
export function evaluatorModelOf(url: string): string | null {
  const path = decodeURIComponent(new URL(url, 'http://x/').pathname);
  const at = path.indexOf('/onnx/');
  if (at < 0 || !path.endsWith('.onnx')) return null;
  const folder = path.slice(0, at);
  const hub = folder.indexOf('/resolve/');
  if (hub >= 0) return folder.slice(1, hub); // https://huggingface.co/<owner>/<name>/resolve/<rev>/onnx/…
  const pack = folder.lastIndexOf('/models/');
  return pack >= 0 ? folder.slice(pack + '/models/'.length) : folder.slice(folder.lastIndexOf('/') + 1);
}

/** The web-llm model id of a cached weight manifest (…/<model id>/resolve/main/tensor-cache.json). */
export function generatorModelOf(url: string): string | null {
  const path = decodeURIComponent(new URL(url, 'http://x/').pathname);
  if (!path.endsWith('/tensor-cache.json')) return null;
  const folder = path.replace(/\/tensor-cache\.json$/, '').replace(/\/resolve\/[^/]+$/, '');
  return folder.slice(folder.lastIndexOf('/') + 1) || null;
}

async function idsIn(cacheName: string, of: (url: string) => string | null, api: CacheStorage): Promise<string[]> {
  if (!(await api.has(cacheName))) return [];
  const keys = await (await api.open(cacheName)).keys();
  return [...new Set(keys.map((r) => of(r.url)).filter((x): x is string => x !== null))].sort();
}

/** `gguf`: llama.cpp's kept models (a test passes its own). */
export async function listCachedModels(
  api: CacheStorage | undefined = globalThis.caches,
  gguf: () => Promise<string[]> = () => listKeptGguf(),
): Promise<CachedModels> {
  // One unreadable store does not hide what the other holds.
  const [evaluator, webllm, kept] = await Promise.all([
    api ? idsIn(TRANSFORMERS_CACHE, evaluatorModelOf, api) : [],
    api ? idsIn(WEBLLM_MODEL_CACHE, generatorModelOf, api) : [],
    gguf().catch(() => []),
  ]);
  return { evaluator, generator: [...webllm, ...kept] };
}
