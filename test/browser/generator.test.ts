// The generator client through the real worker and web-llm's real worker
// protocol in Chromium: a production-mode build with the real engine (no model
// is reachable here, so it must say so plainly), and the e2e build, where the
// scripted engine stands in and a whole decode crosses the worker boundary.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from './pages/generator-page';
import { E2E_DIR, OUTPUT_DIR, PROD_DIR, ROOT, launchBrowser, serveDir, type Served } from './harness';
import { SCRIPTED_ENGINE_MARKER } from '../doubles/scripted-engine';

const PAGE_PROD_DIR = join(OUTPUT_DIR, 'generator-prod');
const PAGE = 'test/browser/pages/generator.html';

/** The test page built exactly as production builds are (mode 'production': no test aliases). */
async function buildProductionPage(): Promise<void> {
  await build({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: { outDir: PAGE_PROD_DIR, emptyOutDir: true, rollupOptions: { input: { generator: join(ROOT, PAGE) } } },
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

function containsMarker(dir: string): boolean {
  return filesUnder(dir)
    .filter((f) => /\.(js|mjs|html)$/.test(f))
    .some((f) => readFileSync(f, 'utf8').includes(SCRIPTED_ENGINE_MARKER));
}

async function openPage(browser: Browser, served: Served, errors: string[]): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${served.url}${PAGE}`);
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'loaded');
  return page;
}

const runCheck = (page: Page, config: object, opts: object = {}): Promise<CheckResult> =>
  page.evaluate(
    ([c, o]) =>
      (window as unknown as { generatorCheck: (c: object, o: object) => Promise<CheckResult> }).generatorCheck(c, o),
    [config, opts] as const,
  );

describe('generator, production build with the real web-llm engine', () => {
  let served: Served;
  beforeAll(async () => {
    await buildProductionPage();
    served = await serveDir(PAGE_PROD_DIR, { prefix: '/sub/path/' });
  });
  afterAll(async () => served?.close());

  it('never ships the engine double', () => {
    expect(containsMarker(E2E_DIR)).toBe(true); // the grep does find the double where it belongs
    expect(containsMarker(PAGE_PROD_DIR)).toBe(false);
    expect(containsMarker(PROD_DIR)).toBe(false); // the app as shipped
  });

  it('keeps web-llm out of what the page loads first', () => {
    expect(existsSync(PROD_DIR)).toBe(true); // built by test/setup/builds.ts
    const html = readFileSync(join(PROD_DIR, 'index.html'), 'utf8');
    const first = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\.\/([^"]+\.js)"/g)].map((m) => m[1]!);
    expect(first.length).toBeGreaterThan(0);
    for (const f of first)
      expect(readFileSync(join(PROD_DIR, f), 'utf8'), f).not.toContain('setLogitProcessorRegistry');
    // …while the lazily loaded chunks do carry it (so the check above can fail).
    expect(
      filesUnder(join(PROD_DIR, 'assets')).some(
        (f) => f.endsWith('.js') && readFileSync(f, 'utf8').includes('setLogitProcessorRegistry'),
      ),
    ).toBe(true);
  });

  it('loads web-llm in its worker on SwiftShader WebGPU and, with no model reachable, reports a failed download with a way forward', async () => {
    const browser = await launchBrowser();
    try {
      const errors: string[] = [];
      const page = await openPage(browser, served, errors);
      const failed: string[] = [];
      page.context().on('requestfailed', (r) => failed.push(r.url()));
      const result = await runCheck(page, { source: 'hub' });
      await page.screenshot({ path: join(OUTPUT_DIR, 'generator-prod-no-model.png') });
      expect(result.ok).toBe(false);
      expect(result.error?.kind).toBe('download');
      expect(result.error?.suggestion).toMatch(/local model pack|try again|retry/i);
      expect(result.progress[0]?.stage).toBe('checking');
      // web-llm itself, in the worker, asked for the q4f32 build (SwiftShader has no shader-f16).
      expect(served.requests.some((p) => /webllm\.worker-[\w-]+\.js$/.test(p))).toBe(true);
      expect(failed).toContain(
        'https://huggingface.co/mlc-ai/Qwen2.5-1.5B-Instruct-q4f32_1-MLC/resolve/main/mlc-chat-config.json',
      );
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('without WebGPU, says so and points to evidence-only mode', async () => {
    const browser = await launchBrowser({ webgpu: false });
    try {
      const page = await openPage(browser, served, []);
      const result = await runCheck(page, {});
      expect(result.error?.kind).toBe('no-webgpu');
      expect(result.error?.suggestion).toMatch(/evidence-only/);
    } finally {
      await browser.close();
    }
  });
});

describe('generator, e2e build: a decode through the real worker boundary', () => {
  let served: Served;
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    served = await serveDir(E2E_DIR, { prefix: '/e2e/' });
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('loads with progress, streams a segment with its critique probabilities, aborts and answers again', async () => {
    const errors: string[] = [];
    const page = await openPage(browser, served, errors);
    const result = await runCheck(page, { source: 'hub' }, { abort: true });
    await page.screenshot({ path: join(OUTPUT_DIR, 'generator-e2e.png') });
    expect(result.error).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.modelId).toBe('Qwen2.5-1.5B-Instruct-q4f32_1-MLC');
    expect(result.progress.map((p) => p.stage)).toEqual(expect.arrayContaining(['checking', 'downloading', 'ready']));
    const [seg] = result.segments as {
      text: string;
      rel: { relevant: number; irrelevant: number };
      sup: { full: number };
      use: number[];
      problem?: string;
    }[];
    expect(seg!.text).toBe('Lyon is a city in France where the Rhone meets the Saone.');
    expect(seg!.problem).toBeUndefined();
    expect(seg!.rel.relevant + seg!.rel.irrelevant).toBeCloseTo(1, 6);
    expect(seg!.rel.relevant).toBeGreaterThan(0.5); // the question's only content word is in the passage
    expect(seg!.sup.full).toBeGreaterThan(0.5);
    expect(seg!.use).toHaveLength(5);
    expect(result.streamed.length).toBeGreaterThan(3);
    expect(result.streamed.at(-1)).toBe(seg!.text);
    expect((result.retrieval as { retrieval: number }).retrieval).toBeGreaterThan(0.5);
    expect(result.aborted).toBe(true);
    expect(result.afterAbort).toBe(seg!.text);
    expect(errors).toEqual([]);
  });
});
