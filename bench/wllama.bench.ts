// The llama.cpp engine (wllama) for real, in headless Chromium, on the tiny GGUF
// model (scripts/make-tiny-gguf.ts): the whole decode loop over the sample
// questions and library, counted from llama.cpp's own timings.
//   - prefill: prompt tokens our generator's turns computed (timings.prompt_n) against those
//     llama.cpp's prompt cache reused (timings.cache_n): every candidate and every critique
//     turn shares the system prompt and worked example, and a critique shares its answer's
//     conversation, so without the cache all of them would be computed;
//   - decode speed on 1 and 2 threads (2 needs a cross-origin isolated page: COOP/COEP).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chunkText } from '../src/core/chunk';
import type { Passage } from '../src/core/ports';
import { makeTinyGgufs, TINY_GGUF_DIR } from '../scripts/make-tiny-gguf';
import { launchBrowser, OUTPUT_DIR, serveDir } from '../test/browser/harness';
import { cpSync } from 'node:fs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(OUTPUT_DIR, 'wllama-bench');
const PAGE = 'test/browser/pages/wllama.html';
const ISOLATED = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

function library(): Passage[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'public/sample/manifest.json'), 'utf8')) as {
    documents: { file: string; title: string }[];
  };
  return manifest.documents.flatMap((d) =>
    chunkText(
      { docId: d.file, title: d.title, text: readFileSync(join(ROOT, 'public/sample', d.file), 'utf8') },
      { targetTokens: 80, overlapTokens: 0 },
    ),
  );
}

function questions(): string[] {
  return readFileSync(join(ROOT, 'public/eval/sample-questions.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { question: string }).question);
}

export async function run(): Promise<void> {
  makeTinyGgufs();
  await build({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'error',
    build: { outDir: OUT, emptyOutDir: true, rollupOptions: { input: { wllama: join(ROOT, PAGE) } } },
  });
  cpSync(TINY_GGUF_DIR, join(OUT, 'models/tiny-gguf'), { recursive: true });
  const served = await serveDir(OUT, { headers: ISOLATED });
  const browser = await launchBrowser({ webgpu: false });
  try {
    const page = await browser.newPage();
    await page.goto(`${served.url}${PAGE}`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'loaded');
    type Api = Record<string, (...a: unknown[]) => Promise<unknown>>;
    const call = <T>(fn: string, ...args: unknown[]) =>
      page.evaluate(([f, a]) => (window as unknown as { wl: Api }).wl[f as string]!(...(a as unknown[])), [
        fn,
        args,
      ] as const) as Promise<T>;
    const qs = questions();
    await call('load', '../../../models/tiny-gguf/chat.gguf', { nThreads: 1, nProbs: 20 });
    const r = await call<{
      ours: { prefilled: number; cached: number; decoded: number };
      cost: { calls: number };
      candidates: number;
    }>('bench', qs, library());
    console.log(
      `${qs.length} questions from public/eval/sample-questions.jsonl, sample library, beam 2, 3 passages/step, depth ≤ 3, retrieval always (the tiny model itself would never retrieve)`,
    );
    console.log(
      'real llama.cpp (wllama 3.8.1) on the tiny GGUF model; tokens counted by its own tokenizer (timings.prompt_n)\n',
    );
    const q = qs.length;
    const total = r.ours.prefilled + r.ours.cached;
    console.log(
      '| prompt tokens / question | computed | reused from the cache | calls / question | candidates / question | computed vs without the cache |',
    );
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(
      `| ours on llama.cpp (wllama 3.8.1) | ${(r.ours.prefilled / q).toFixed(0)} | ${(r.ours.cached / q).toFixed(0)} | ${(r.cost.calls / q).toFixed(1)} | ${(r.candidates / q).toFixed(1)} | ${(r.ours.prefilled / total).toFixed(2)} |`,
    );
    console.log('\ndecode speed (tiny model, llama.cpp timings)');
    for (const threads of [1, 2]) {
      await call('load', '../../../models/tiny-gguf/chat.gguf', { nThreads: threads, nProbs: 20 });
      const s = await call<{ decoded: number; ms: number; isolated: boolean }>('speed', 64);
      console.log(
        `  ${threads} thread${threads > 1 ? 's' : ' '}: ${((s.decoded / s.ms) * 1000).toFixed(0)} tokens/s (${s.decoded} tokens, cross-origin isolated: ${s.isolated})`,
      );
    }
  } finally {
    await browser.close();
    await served.close();
  }
}
