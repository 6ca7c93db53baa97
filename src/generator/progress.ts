// web-llm reports loading as free text; the UI wants a stage and byte counts.
import type { InitProgressReport } from '@mlc-ai/web-llm';

export type LoadStage = 'checking' | 'downloading' | 'reading-cache' | 'compiling' | 'ready';

export interface LoadProgress {
  /** 0..1 over the whole load. */
  fraction: number;
  stage: LoadStage;
  /** Bytes fetched so far in this stage, when the engine says. */
  loadedBytes?: number;
  /** web-llm's own words, for a details line. */
  text: string;
}

const MB = 1024 * 1024;

export function toLoadProgress(report: InitProgressReport): LoadProgress {
  const text = report.text ?? '';
  const fraction = Math.min(1, Math.max(0, Number.isFinite(report.progress) ? report.progress : 0));
  let stage: LoadStage = 'checking';
  if (/^Fetching|fetched/i.test(text)) stage = 'downloading';
  else if (/from cache/i.test(text)) stage = 'reading-cache';
  else if (/shader|compil|GPU/i.test(text) && !/^Finish/i.test(text)) stage = 'compiling';
  if (/^Finish loading/i.test(text) || fraction >= 1) stage = 'ready';
  const mb = /(\d+(?:\.\d+)?)\s*MB (?:fetched|loaded)/i.exec(text);
  return { fraction, stage, text, ...(mb ? { loadedBytes: Math.round(Number(mb[1]) * MB) } : {}) };
}
