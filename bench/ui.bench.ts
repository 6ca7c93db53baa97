// UI bench: the main chunk's gzipped size and time to interactive in headless
// Chromium, each against a bare Vite + React page built in the same run; and
// re-rank + re-render time per slider move for a 6-segment, 5-candidates-per-step
// answer, measured in the browser against one 16 ms frame.
import react from '@vitejs/plugin-react';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { entryBytes } from '../test/browser/entry-bytes';
import { launchBrowser, serveDir } from '../test/browser/harness';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FRAME_MS = 16;
const TTI_RUNS = 7;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? NaN;
}

/** Gzipped bytes of the entry script and every chunk it statically preloads: what a first visit must fetch (the budget test's definition). */
function mainChunkGzip(dist: string): { bytes: number; files: string[] } {
  const { bytes, files } = entryBytes(dist);
  return { bytes, files: files.map((f) => f.file) };
}

async function buildBaseline(tmp: string): Promise<string> {
  const src = join(tmp, 'baseline');
  mkdirSync(src, { recursive: true });
  writeFileSync(
    join(src, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>bare</title></head><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>',
  );
  writeFileSync(
    join(src, 'main.tsx'),
    `import { useState } from 'react';
import { createRoot } from 'react-dom/client';
function App() {
  const [q, setQ] = useState('');
  return <main><h1>Bare page</h1><textarea id="question" value={q} onChange={(e) => setQ(e.target.value)} /></main>;
}
createRoot(document.getElementById('root')!).render(<App />);
`,
  );
  const out = join(tmp, 'baseline-dist');
  await build({
    root: src,
    base: './',
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: out, emptyOutDir: true, target: 'es2022' },
  });
  return out;
}

async function buildApp(tmp: string): Promise<string> {
  const out = join(tmp, 'app-dist');
  await build({
    root: ROOT,
    mode: 'production',
    logLevel: 'warn',
    build: { outDir: out, emptyOutDir: true, sourcemap: false },
  });
  return out;
}

async function buildRerankPage(tmp: string): Promise<string> {
  const src = join(ROOT, 'bench/ui-page');
  writeFileSync(
    join(tmp, 'rerank.html'),
    `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>rerank bench</title></head><body><div id="root"></div><script type="module" src="${join(src, 'rerank-page.tsx')}"></script></body></html>`,
  );
  const out = join(tmp, 'rerank-dist');
  await build({
    root: tmp,
    base: './',
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: out, emptyOutDir: true, target: 'es2022', rollupOptions: { input: join(tmp, 'rerank.html') } },
  });
  return out;
}

/** Navigation start → the question box is on screen and the main thread has gone idle once. */
async function timeToInteractive(browser: Awaited<ReturnType<typeof launchBrowser>>, url: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < TTI_RUNS; i++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForSelector('#question', { state: 'visible' });
    const t = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const el = document.getElementById('question') as HTMLTextAreaElement;
          // Interactive = an input event on the box is handled after the page's own startup work.
          requestAnimationFrame(() =>
            setTimeout(() => {
              el.focus();
              el.dispatchEvent(new Event('input', { bubbles: true }));
              resolve(performance.now());
            }, 0),
          );
        }),
    );
    times.push(t);
    await ctx.close();
  }
  return times;
}

export async function run(): Promise<void> {
  const tmpParent = join(ROOT, 'node_modules/.tmp');
  mkdirSync(tmpParent, { recursive: true });
  const tmp = mkdtempSync(join(tmpParent, 'ui-bench-'));
  const browser = await launchBrowser();
  try {
    const [baseDist, appDist, rerankDist] = [await buildBaseline(tmp), await buildApp(tmp), await buildRerankPage(tmp)];
    const base = mainChunkGzip(baseDist);
    const app = mainChunkGzip(appDist);

    const baseServed = await serveDir(baseDist);
    const appServed = await serveDir(appDist);
    const baseTti = await timeToInteractive(browser, baseServed.url);
    const appTti = await timeToInteractive(browser, appServed.url);
    await baseServed.close();
    await appServed.close();

    const rr = await serveDir(rerankDist);
    const page = await browser.newPage();
    await page.goto(`${rr.url}rerank.html`);
    const r = await page.evaluate(() => window.__bench!);
    await page.close();
    await rr.close();

    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    const ms = (n: number) => `${n.toFixed(2)} ms`;
    console.log('metric                               app          bare Vite+React   ratio');
    console.log(
      `main chunk (gzip -9, entry+preloads) ${kb(app.bytes).padEnd(12)} ${kb(base.bytes).padEnd(17)} ${(app.bytes / base.bytes).toFixed(2)}x`,
    );
    console.log(
      `time to interactive (median of ${TTI_RUNS})    ${ms(median(appTti)).padEnd(12)} ${ms(median(baseTti)).padEnd(17)} ${(median(appTti) / median(baseTti)).toFixed(2)}x`,
    );
    console.log(`  app entry files: ${app.files.join(', ')}`);
    console.log(
      `\nre-rank per slider move (${r.segments} segments, ${r.perStep} candidates per step, ${r.renderMs.length} moves, ${r.changedMoves} changed the answer):`,
    );
    console.log(
      `  rerank only         median ${ms(median(r.rerankMs))}  p95 ${ms(pct(r.rerankMs, 0.95))}  max ${ms(Math.max(...r.rerankMs))}`,
    );
    console.log(
      `  rerank + re-render  median ${ms(median(r.renderMs))}  p95 ${ms(pct(r.renderMs, 0.95))}  max ${ms(Math.max(...r.renderMs))}  ` +
        `(p95 / ${FRAME_MS} ms frame = ${(pct(r.renderMs, 0.95) / FRAME_MS).toFixed(2)}; ${pct(r.renderMs, 0.95) <= FRAME_MS ? 'within one frame' : 'OVER one frame'})`,
    );
  } finally {
    await browser.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}
