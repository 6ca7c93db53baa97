// Real tier, offline after one visit (issue 47): the production site with the real model pack
// (`?modelPack=real`: the real all-MiniLM-L6-v2) and a real GGUF (SmolLM2-135M-Instruct) served by
// the site. Visit, ask, go offline, reload, ask: a written answer with the same model; then the
// plain address, where the embedding model named is the hub's and cannot be reached: the library
// is listed as it was. Asserts what holds for any working model, never its wording.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askAndSettle } from '../browser/ask';
import { PROD_DIR, launchBrowser, serveDir, type Served } from '../browser/harness';
import { realModelsAvailable } from './available';
import { SITE_GGUF, realSite } from './site';

const ready = realModelsAvailable('real-model offline tier');
const COMMIT = { waitUntil: 'commit' } as const;
const QUERY = `?modelPack=real&engine=wllama&gguf=${SITE_GGUF.smollm2}`;
const MODEL = /SmolLM2-135M-Instruct\.Q4_1\.gguf/;

describe.runIf(ready)('offline after one visit, on real models (llama.cpp on the CPU)', () => {
  let browser: Browser;
  let served: Served;
  let context: BrowserContext;
  beforeAll(async () => {
    served = await serveDir(realSite(PROD_DIR, 'real-offline-site'));
    browser = await launchBrowser({ webgpu: false });
    context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await served?.close().catch(() => undefined);
  });

  const docIds = (page: Page) =>
    page.getByTestId('doc').evaluateAll((els) => els.map((e) => e.getAttribute('data-doc-id')));

  async function load(page: Page, go: () => Promise<unknown>): Promise<void> {
    await go();
    await page.getByTestId('doc').first().waitFor({ timeout: 300_000 });
  }

  it('answers again with the same GGUF with the network off, and lists the library at the plain address', {
    timeout: 1_800_000,
  }, async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await load(page, () => page.goto(served.url + QUERY, COMMIT));
    // The service worker controls the page from its second load: the model pack's discovery files are kept from then on.
    await page.waitForSelector('[data-testid=offline-status][data-shell=ready]', { timeout: 300_000 });
    await load(page, () => page.reload(COMMIT));
    await expect.poll(() => page.getByTestId('doc').count(), { timeout: 300_000 }).toBeGreaterThan(1);
    expect(await askAndSettle(page, 'Why does the sea have tides?', { timeout: 600_000 })).toMatch(/^done: /);
    const generator = page.locator('[data-testid=status] [data-worker=generator]');
    expect(await generator.innerText()).toMatch(MODEL);
    await page.waitForSelector('[data-testid=offline-status][data-ready=true]', { timeout: 300_000 });
    expect(await page.getByTestId('offline-models').innerText()).toMatch(MODEL);
    const listed = await docIds(page);

    await served.close();
    await context.setOffline(true);
    await load(page, () => page.reload(COMMIT));
    await page.getByTestId('new-thread').click();
    const again = await askAndSettle(page, 'Why does the sea have tides?', { timeout: 600_000 });
    expect(again).toMatch(/^done: /);
    expect(again).not.toMatch(/could not be downloaded/);
    expect(await generator.innerText()).toMatch(MODEL);

    await load(page, () => page.goto(served.url, COMMIT));
    await expect.poll(() => page.getByTestId('doc').count(), { timeout: 300_000 }).toBe(listed.length);
    expect(await docIds(page)).toEqual(listed);
    expect(errors).toEqual([]);
  });
});
