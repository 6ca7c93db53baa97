// Whether the models cannot be downloaded at all: the workers say so when fetch could not reach
// where the models come from (workers/evaluator/runtime.ts writes "… cannot be reached from this
// network, or the browser is offline"). Then one notice says what is lost and what still works,
// in place of the offers that need a download (llama.cpp on the CPU, a smaller model).
import type { StatusMap } from '../state/worker-status';

const UNREACHABLE = /cannot be reached from this network/;

/** A model download failed because its host cannot be reached (not a model that failed to run). */
export function modelsUnreachable(status: StatusMap): boolean {
  return Object.values(status).some((w) => w.state === 'error' && UNREACHABLE.test(w.error ?? ''));
}

/** An error's advice without ways forward that need a download ("or choose a smaller model"). */
export function withoutDownloadAdvice(text: string): string {
  return text
    .replace(/,?\s*(?:or\s+)?choose a smaller model(?: \([^)]*\))?/gi, '')
    .replace(/\s+([.,;])/g, '$1')
    .replace(/(^|[.!?]\s+)[,;]\s*(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase())
    .trim();
}
