// The app embedded by a page of another site: the host on http://localhost:Q, the app on
// http://127.0.0.1:P. Browsers treat the two as different sites (both are secure contexts),
// so the frame meets what a real cross-site embed meets: Debian's Chromium blocks its storage
// (localStorage, IndexedDB, Cache Storage and OPFS all throw SecurityError).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { E2E_DIR, OUTPUT_DIR, launchBrowser, serveDir, type Served } from './harness';

const QUERY = '?modelPack=tiny';
const QUESTION = 'Why does the sea have tides?';

// A documentation page of another site, placing the app with the site's own embed.js.
const HOST_PAGE = `<!doctype html><html><head><title>Host docs</title></head><body>
<h1>Docs of another site</h1><div id="rag"></div>
<script type="module">
  const p = new URLSearchParams(location.search);
  window.log = [];
  addEventListener('message', (e) => window.log.push({ origin: e.origin, data: e.data }));
  const { embed } = await import(p.get('script'));
  window.embedded = embed(document.getElementById('rag'), {
    app: p.get('app'), theme: 'dark', height: 600, timeoutMs: Number(p.get('timeout') || 60000),
  }).then((r) => { window.rag = r; return 'ready'; }, (e) => 'failed: ' + e.message);
</script></body></html>`;

let browser: Browser;
let app: Served;
let host: Served;
let stranger: Served;
const dir = mkdtempSync(join(tmpdir(), 'embed-host-'));
const contexts: { close(): Promise<void> }[] = [];
const onLocalhost = (s: Served) => s.url.replace('127.0.0.1', 'localhost');

beforeAll(async () => {
  writeFileSync(join(dir, 'index.html'), HOST_PAGE);
  // embed.js is imported as a module by another origin, which needs CORS (as GitHub Pages and most static hosts send).
  app = await serveDir(E2E_DIR, { headers: { 'access-control-allow-origin': '*' } });
  host = await serveDir(dir);
  stranger = await serveDir(dir);
  browser = await launchBrowser();
  // The site owner's allow-list: the host, not the stranger.
  writeFileSync(join(E2E_DIR, 'embed.json'), JSON.stringify({ allowedOrigins: [new URL(onLocalhost(host)).origin] }));
});
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
});
afterAll(async () => {
  rmSync(join(E2E_DIR, 'embed.json'), { force: true });
  rmSync(dir, { recursive: true, force: true });
  await browser?.close();
  await Promise.all([app?.close(), host?.close(), stranger?.close()]);
});

async function newPage(init?: string): Promise<{ page: Page; logs: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  contexts.push(context);
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  return { page, logs };
}

/** Opens the host page of `site` embedding the app (with `extra` in the app's address). */
async function openHost(page: Page, site: Served, opts: { extra?: string; timeout?: number } = {}): Promise<Frame> {
  const params = new URLSearchParams({ script: `${app.url}embed.js`, app: `${app.url}${QUERY}${opts.extra ?? ''}`, timeout: String(opts.timeout ?? 60_000) });
  await page.goto(`${onLocalhost(site)}?${params}`);
  await page.waitForFunction(() => (window as unknown as { embedded?: unknown }).embedded !== undefined);
  await expect.poll(() => page.frames().some((f) => f.url().startsWith(app.url)), { timeout: 30_000 }).toBe(true);
  return page.frames().find((f) => f.url().startsWith(app.url))!;
}

const frameStorage = (frame: Frame) =>
  frame.evaluate(() => {
    try {
      localStorage.getItem('x');
      return 'allowed';
    } catch (e) {
      return (e as Error).name;
    }
  });

type Answer = { question: string; segments: { text: string; citation: { title: string } | null }[]; evidenceOnly: boolean };

describe('embedded by another site', () => {
  it('with storage blocked: answers the allowed host with citations, says what is not kept, follows theme and height', async () => {
    const { page } = await newPage();
    // Engine Auto, with the site's tiny GGUF as the CPU model: WebLLM cannot load without Cache
    // Storage, so Auto takes llama.cpp, which loads the file from memory instead of OPFS.
    const frame = await openHost(page, host, { extra: '&gguf=models/tiny-gguf/chat.gguf&mode=always' });
    expect(await page.evaluate(() => (window as unknown as { embedded: Promise<string> }).embedded)).toBe('ready');
    // Really cross-site with storage blocked, as in the issue.
    expect(await frameStorage(frame)).toBe('SecurityError');

    const notice = frame.getByTestId('storage-notice');
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.getAttribute('data-mode')).toBe('memory');
    expect(await notice.innerText()).toMatch(/nothing is kept after you leave/);
    const link = frame.getByTestId('open-in-app');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(new URL((await link.getAttribute('href'))!).origin).toBe(new URL(app.url).origin);

    // The site's documents load into memory.
    await frame.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    const answer = (await page.evaluate((q) => (window as unknown as { rag: { ask(q: string): Promise<unknown> } }).rag.ask(q), QUESTION)) as Answer;
    expect(answer.question).toBe(QUESTION);
    expect(answer.evidenceOnly).toBe(false);
    expect(await frame.locator('[data-worker=generator]').innerText()).toMatch(/llama\.cpp/i);
    expect(answer.segments.length).toBeGreaterThan(0);
    expect(answer.segments.map((s) => s.citation?.title)).toContain('Why the Sea Has Tides');
    const log = (await page.evaluate(() => (window as unknown as { log: { origin: string; data: { type: string; version?: number; height?: number } }[] }).log));
    expect(log.filter((m) => m.data.type === 'error')).toEqual([]);
    expect(log.find((m) => m.data.type === 'ready')?.data.version).toBe(2);
    expect(await page.evaluate(() => (window as unknown as { rag: { version: number } }).rag.version)).toBe(2);

    // The host sized the frame to the height the app reported, and passed its theme.
    const heights = log.filter((m) => m.data.type === 'resize').map((m) => m.data.height!);
    expect(heights.length).toBeGreaterThan(0);
    const last = (await page.evaluate(() => (window as unknown as { log: { data: { type: string; height?: number } }[] }).log.filter((m) => m.data.type === 'resize').at(-1)!.data.height!));
    expect(await page.locator('iframe').evaluate((f) => (f as HTMLIFrameElement).style.height)).toBe(`${Math.max(200, Math.ceil(last))}px`);
    expect(await frame.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.locator('iframe').getAttribute('title')).toBeTruthy();
    await page.screenshot({ path: join(OUTPUT_DIR, 'embed-cross-site-blocked.png'), fullPage: true });
  });

  it('answers nothing to a host not in embed.json, whatever the address claims', async () => {
    const { page, logs } = await newPage();
    const strangerOrigin = new URL(onLocalhost(stranger)).origin;
    // `embedOrigin` in the app's address is the host's to choose: it must widen nothing.
    const frame = await openHost(page, stranger, { extra: `&embedOrigin=${encodeURIComponent(strangerOrigin)}`, timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { embedded: Promise<string> }).embedded)).toMatch(/^failed: The app at .* did not answer/);
    await frame.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    // Asked directly, by hand: ignored and logged by the app, nothing comes back.
    await page.evaluate((q) => document.querySelector('iframe')!.contentWindow!.postMessage({ type: 'ask', question: q, id: 'x' }, '*'), QUESTION);
    await expect.poll(() => logs.some((l) => l.includes('[embed] ignored') && l.includes(strangerOrigin)), { timeout: 30_000 }).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { log: unknown[] }).log)).toEqual([]);
    expect(await frame.locator('[data-testid=answer], [data-testid=evidence]').count()).toBe(0);
  });

  it('Storage Access (API stubbed): asked only on the button, then the frame reads the library saved on the app site', async () => {
    // This Chromium's storage-access permission set over CDP makes requestStorageAccess resolve
    // without unblocking anything (and asking for indexedDB crashes the browser), so the API is
    // stubbed. The permission reads 'prompt' until the stub was asked, then 'granted' (the frame's
    // window.name survives its reload, and counts the requests); the handle holds the app site's own
    // IndexedDB, taken from a top-level window of the app site.
    const appOrigin = new URL(app.url).origin;
    const stub = `(() => {
      if (location.origin !== ${JSON.stringify(appOrigin)} || window.top === window) return;
      const asked = () => Number(window.name.split(':')[1] || 0);
      Document.prototype.hasStorageAccess = async () => false;
      const query = Permissions.prototype.query;
      Permissions.prototype.query = function (d) { return d && d.name === 'storage-access' ? Promise.resolve({ state: asked() > 0 ? 'granted' : 'prompt' }) : query.call(this, d); };
      Document.prototype.requestStorageAccess = async function () {
        window.name = 'asked:' + (asked() + 1);
        const w = window.open(${JSON.stringify(`${app.url}sample/manifest.json`)}, 'app-site-storage-' + asked());
        await new Promise((ok) => { const t = () => { try { if (w.location.href.startsWith('http') && w.document.readyState === 'complete') return ok(); } catch {} setTimeout(t, 50); }; t(); });
        // The handle's objects come from that window: make them the ones idb recognises here.
        for (const k of ['IDBRequest', 'IDBOpenDBRequest', 'IDBDatabase', 'IDBObjectStore', 'IDBIndex', 'IDBCursor', 'IDBCursorWithValue', 'IDBTransaction', 'IDBKeyRange']) window[k] = w[k];
        return { indexedDB: w.indexedDB, caches: w.caches, localStorage: w.localStorage };
      };
    })();`;
    const { page } = await newPage(stub);
    // A visit to the app's own site adds a document there.
    await page.goto(`${app.url}${QUERY}`);
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    await page.locator('details.paste summary').click();
    await page.getByTestId('paste-title').fill('Harbour pilots');
    await page.getByTestId('paste-text').fill('Harbour pilots board incoming ships at the fairway buoy and steer them through the narrow channel to their berth.');
    await page.getByTestId('paste-add').click();
    await page.getByText('Harbour pilots', { exact: true }).first().waitFor({ timeout: 120_000 });

    const frame = await openHost(page, host);
    const notice = frame.getByTestId('storage-notice');
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.getAttribute('data-mode')).toBe('memory');
    await frame.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    expect(await frame.getByText('Harbour pilots', { exact: true }).count()).toBe(0);
    // Nothing is asked before the click.
    expect(await frame.evaluate(() => window.name)).toBe('');
    const button = frame.getByTestId('storage-access');
    expect(await button.innerText()).toBe(`Use the library and models saved on ${new URL(app.url).host}`);
    await button.click();

    // Granted: the frame reloads into the app site's library (asked again silently on the reload).
    await expect.poll(() => frame.getByTestId('storage-notice').getAttribute('data-mode').catch(() => null), { timeout: 60_000 }).toBe('shared');
    await frame.getByText('Harbour pilots', { exact: true }).first().waitFor({ timeout: 120_000 });
    expect(await frame.evaluate(() => window.name)).toBe('asked:2');
    expect(await frame.getByTestId('storage-access').count()).toBe(0);
  });
});
