// Turns the recogniser's per-page events into pages done and the time left, at the
// rate since the file's first page started (which includes the engine's start on a
// first scan, so the first estimate errs long).
import type { OcrProgress } from './port';

export interface PageProgress {
  pagesDone: number;
  pagesTotal: number;
  secondsLeft?: number;
}

export function pageProgress(emit: (p: PageProgress) => void, now: () => number = Date.now): (p: OcrProgress) => void {
  let started: number | undefined;
  return ({ done, total }) => {
    const t = now();
    if (done === 0) started = t;
    const left = done > 0 && started !== undefined ? ((t - started) / done) * (total - done) : undefined;
    emit({
      pagesDone: done,
      pagesTotal: total,
      ...(left !== undefined ? { secondsLeft: Math.round(left / 1000) } : {}),
    });
  };
}
