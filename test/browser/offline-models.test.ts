// Offline after one visit, where the models came from elsewhere than the page's own caches (issue 47):
// a GGUF model llama.cpp loaded from the site's copy is kept and answers again with the network
// off, and a library built with a model pack is listed and searched by its words at the plain
// address, where the embedding model the page would use cannot be reached.
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { askAndSettle } from './ask';
import { E2E_DIR, launchBrowser, serveDir, type Served } from './harness';

const COMMIT = { waitUntil: 'commit' } as const;
// The catalogue's default GGUF model, as a site that ran `npm run models -- --gguf` ships it: the tiny chat model stands in.
const SITE_COPY = 'models/gguf/qwen2.5-0.5b-instruct-q4_k_m.gguf';
const HUB = 'https://huggingface.co/';

let browser: Browser;
const contexts: BrowserContext[] = [];
const servers: Served[] = [];

beforeAll(async () => {
  // No WebGPU: Auto answers with llama.cpp on the CPU (the second test reads only the library).
  browser = await launchBrowser({ webgpu: false });
});
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  for (const s of servers.splice(0)) await s.close().catch(() => undefined);
});
afterAll(async () => {
  await browser?.close();
});

async function visit(
  served: Served,
  query: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  contexts.push(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(served.url + query, COMMIT);
  await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
  return { context, page, errors };
}

/** The site gone and the browser offline (Chromium's emulation does not cover the service worker's own fetches). */
async function goOffline(context: BrowserContext, served: Served): Promise<void> {
  await served.close();
  servers.splice(servers.indexOf(served), 1);
  await context.setOffline(true);
}

async function ask(page: Page, question: string): Promise<string> {
  const settled = await askAndSettle(page, question);
  expect(settled).toMatch(/^done: /);
  return settled;
}

describe('a GGUF model from the site’s own copy', () => {
  it('is kept: the picker and the Offline panel say so, and with the network off a reload answers with the same model', {
    timeout: 600_000,
  }, async () => {
    const served = await serveDir(E2E_DIR, { extra: { [SITE_COPY]: join(E2E_DIR, 'models/tiny-gguf/chat.gguf') } });
    servers.push(served);
    const { context, page, errors } = await visit(served, '?modelPack=tiny&engine=wllama');
    // The service worker controls the page from its second load (it claims no open page), and only a
    // controlled page keeps the last copy of the model pack's config.json for offline use.
    await page.waitForSelector('[data-testid=offline-status][data-shell=ready]', { timeout: 120_000 });
    await page.reload(COMMIT);
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    const hub: string[] = [];
    context.on('request', (r) => r.url().startsWith(HUB) && hub.push(r.url()));
    // The tiny model's own decision is "no retrieval": always retrieve, for citations.
    await page.locator('#mode').selectOption('always');
    await ask(page, 'Why does the sea have tides?');
    expect(await page.getByTestId('segment').count()).toBeGreaterThan(0);
    const generator = page.locator('[data-testid=status] [data-worker=generator]');
    const model = /Qwen2\.5 0\.5B Instruct Q4_K_M/;
    expect(await generator.innerText()).toMatch(model);
    expect(served.requests).toContain(`/${SITE_COPY}`);
    // The picker and the panel agree: the model is in this browser, under the name of its file.
    await expect.poll(() => page.getByTestId('gguf').innerText(), { timeout: 120_000 }).toMatch(/downloaded/);
    await page.waitForSelector('[data-testid=offline-status][data-ready=true]', { timeout: 120_000 });
    expect(await page.getByTestId('offline-models').innerText()).toMatch(
      /language model .*qwen2\.5-0\.5b-instruct-q4_k_m\.gguf/,
    );

    await goOffline(context, served);
    await page.reload(COMMIT);
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await page.locator('#mode').selectOption('always');
    // A new thread: asked standalone, as the first time (a follow-up's prompt carries the earlier turn).
    await page.getByTestId('new-thread').click();
    const again = await ask(page, 'Why does the sea have tides?');
    expect(again).not.toMatch(/could not be downloaded/);
    expect(await page.getByTestId('segment').count(), again).toBeGreaterThan(0);
    expect(await generator.innerText()).toMatch(model);
    expect(hub).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('a library built with a model pack', () => {
  it('is listed and searched by its words offline at the plain address, where the embedding model cannot be reached', {
    timeout: 600_000,
  }, async () => {
    const served = await serveDir(E2E_DIR);
    servers.push(served);
    const { context, page, errors } = await visit(served, '?modelPack=tiny');
    await page.waitForSelector('[data-testid=offline-status][data-shell=ready]', { timeout: 120_000 });
    const ids = () => page.getByTestId('doc').evaluateAll((els) => els.map((e) => e.getAttribute('data-doc-id')));
    await expect.poll(() => page.getByTestId('doc').count(), { timeout: 120_000 }).toBeGreaterThan(1);
    const before = await ids();

    await goOffline(context, served);
    // The plain address: the embedding model named there is the hub's, never downloaded here.
    await page.goto(served.url, COMMIT);
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByTestId('doc').count(), { timeout: 120_000 }).toBe(before.length);
    expect(await ids()).toEqual(before);
    // Searched by words: the question's passage is found without the embedding model.
    await page.locator('#mode').selectOption('always');
    await page.fill('#question', 'Why does the sea have tides?');
    await page.getByTestId('ask').click();
    const view = page.locator(':is([data-testid=answer], [data-testid=evidence]):not([data-status=running])');
    await view.first().waitFor({ timeout: 120_000 });
    expect(await view.first().innerText()).toMatch(/Why the Sea Has Tides/);
    expect(await page.getByTestId('library').innerText()).not.toMatch(/The library is empty/);
    expect(errors).toEqual([]);
  });
});
