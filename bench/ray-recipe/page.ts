// The page answering from the recipe's corpus: the production build as shipped, with the real
// all-MiniLM-L6-v2 under the id the page embeds with by default (Xenova/all-MiniLM-L6-v2, the
// id the docs' `npm run index -- --model` writes in the manifest; under another id the page
// would leave the corpus out), and the written corpus at index/. No language model: the page
// runs in evidence-only mode, where it lists the passages retrieval ranks first.
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { makeTinyModels, TINY_DIR, tinyModelsStale } from '../../scripts/make-tiny-models';
import { DEFAULT_EMBEDDER, DEFAULT_NLI, DEFAULT_RERANKER } from '../../src/evaluator/config';
import { launchBrowser, ROOT, serveDir } from '../../test/browser/harness';
import { realEmbedderDir } from '../real/real-embedder';
import { EMBEDDER_FILES } from '../../scripts/real-models/catalogue';

/** The production build in `site`, with the models it loads by default and `corpus` as its index/. */
export async function buildSite(site: string, corpus: string): Promise<void> {
  rmSync(site, { recursive: true, force: true });
  await build({ root: ROOT, mode: 'production', logLevel: 'error', build: { outDir: site, emptyOutDir: true } });
  const models = join(site, 'models');
  const real = realEmbedderDir()!;
  for (const f of EMBEDDER_FILES) {
    mkdirSync(join(models, DEFAULT_EMBEDDER, f, '..'), { recursive: true });
    cpSync(join(real, f), join(models, DEFAULT_EMBEDDER, f));
  }
  // The page finds its models by itself only when all three are beside it; no real re-ranker or
  // NLI model reaches this machine, so the tiny stand-ins fill those two (neither ranks here:
  // evidence-only mode, re-ranking off).
  if (tinyModelsStale()) makeTinyModels();
  for (const [id, tiny] of [
    [DEFAULT_RERANKER, 'reranker'],
    [DEFAULT_NLI, 'nli'],
  ] as const) {
    cpSync(join(TINY_DIR, tiny), join(models, id), { recursive: true });
    // The stand-ins ship fp32 only; a WASM page asks for q8.
    const onnx = join(models, id, 'onnx');
    if (!existsSync(join(onnx, 'model_quantized.onnx')))
      cpSync(join(onnx, 'model.onnx'), join(onnx, 'model_quantized.onnx'));
  }
  cpSync(corpus, join(site, 'index'), { recursive: true });
}

export interface PageAnswer {
  question: string;
  status: string;
  /** The passages the page lists, best first, as "title · passage n". */
  shown: { title: string; index: number }[];
}

/** Asks each question in its own thread, by meaning only and without re-ranking; a screenshot after the last. */
export async function askPage(
  site: string,
  questions: string[],
  screenshot: string,
  log: (l: string) => void,
): Promise<{ answers: PageAnswer[]; library: string; errors: string[] }> {
  const served = await serveDir(site);
  // No WebGPU, so the page offers evidence-only mode (and would not load a generator anyway).
  const browser = await launchBrowser({ webgpu: false });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(served.url);
    await page.getByTestId('use-evidence-only').click({ timeout: 120_000 });
    await page.getByTestId('search-meaning').check();
    if (await page.getByTestId('rerank').isChecked()) await page.getByTestId('rerank').uncheck();
    const answers: PageAnswer[] = [];
    for (const question of questions) {
      await page.getByTestId('new-thread').click();
      answers.push(await ask(page, question));
      log(`page answered: ${question.slice(0, 60)}`);
    }
    const library = await page.locator('[data-worker=library]').innerText();
    await page.screenshot({ path: screenshot });
    return { answers, library, errors };
  } finally {
    await browser.close();
    await served.close();
  }
}

async function ask(page: Page, question: string): Promise<PageAnswer> {
  // This question's own turn, not the one shown before it (as test/real/browser.test.ts waits).
  const last = page.locator('[data-testid=turn]').last();
  const before = (await last.count()) ? await last.getAttribute('data-turn-id') : null;
  await page.fill('#question', question);
  await page.getByTestId('ask').click();
  const turn = `[data-testid=turn].viewed${before ? `:not([data-turn-id="${before}"])` : ''}`;
  const view = page.locator(`${turn} [data-testid=evidence]`).first();
  const until = Date.now() + 300_000;
  let status: string | null = null;
  while (!/^(done|stopped|error)$/.test(status ?? '')) {
    if (Date.now() > until) throw new Error(`the page did not finish "${question}" in 5 minutes (status ${status})`);
    await page.waitForTimeout(250);
    status = (await view.count()) ? await view.getAttribute('data-status') : null;
  }
  const titles = await view.locator('[data-testid=evidence-passage] h3').allInnerTexts();
  return {
    question,
    status: status!,
    shown: titles.map((t) => {
      const m = / · passage (\d+)$/.exec(t);
      return { title: m ? t.slice(0, m.index) : t, index: m ? Number(m[1]) - 1 : -1 };
    }),
  };
}
