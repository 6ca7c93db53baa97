// What a first visit must download before the page runs: the entry script and every script the
// built index.html loads or preloads with it, each gzipped at level 9 as a static host would.
// One definition for the budget test (entry-size.test.ts) and the page bench (bench/ui.bench.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The budget for that download: 95 KiB gzipped (a bare Vite + React page is about 60). The first
 * screen holds what a visitor needs before asking (the notice when models cannot be reached, a kept
 * evidence-only mode, the answer record it restores): 94.3 KiB (96,526 B) once the re-rank
 * (core/rerank.ts, beam.ts, scores.ts: app/wiring/lazy-rerank.ts), the cached-model listing, the
 * tuning panel's RAGAS line and the parts of core modules only later chunks use (hybrid retrieval,
 * CRAG's settings check) left it; it was 96.7 KiB (98,987 B). A module the first screen imports
 * comes in whole, with every export any later chunk uses: what the first screen needs from a module
 * that is mostly for later lives in a file of its own (core/retrieval-settings.ts, crag/defaults.ts).
 */
export const ENTRY_BUDGET_BYTES = 95 * 1024;

export function entryBytes(dist: string): { bytes: number; files: Array<{ file: string; bytes: number }> } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const paths = [
    ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((m) => m[1]!.replace(/^\.\//, ''));
  if (paths.length === 0) throw new Error(`${join(dist, 'index.html')} loads no module script: is it a built page?`);
  const files = [...new Set(paths)].map((file) => ({
    file,
    bytes: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length,
  }));
  return { bytes: files.reduce((n, f) => n + f.bytes, 0), files };
}
