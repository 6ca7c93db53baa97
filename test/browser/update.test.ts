// A new deployment is picked up without ever mixing builds: serve build A, visit, put
// build B at the same URL; the page offers the update while it keeps running A, and
// after the user accepts, the shell and every chunk the page loads come from B.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_DIR, ROOT, launchBrowser, serveDir, type Served } from './harness';

let browser: Browser;
let served: Served;
let work: string;
let buildB: string;
const site = () => join(work, 'site');

/** Points the served folder at another build, as a redeployment would. */
function deploy(dir: string): void {
  rmSync(site(), { force: true });
  symlinkSync(dir, site());
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'update-'));
  buildB = join(work, 'b');
  // Build B differs from A (the e2e build) in its version label, so its main chunk and shell differ.
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--mode',
      'e2e',
      '--outDir',
      buildB,
      '--emptyOutDir',
      '--logLevel',
      'error',
    ],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, VITE_APP_BUILD: 'B' },
    },
  );
  cpSync(join(E2E_DIR, 'models'), join(buildB, 'models'), { recursive: true });
  deploy(E2E_DIR);
  browser = await launchBrowser();
  served = await serveDir(site());
});
afterAll(async () => {
  await browser?.close();
  await served?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const mainChunk = (dir: string) =>
  /src="\.\/(assets\/main-[^"]+\.js)"/.exec(readFileSync(join(dir, 'index.html'), 'utf8'))![1]!;

/** Every script, style, wasm and worker URL the page has loaded, relative to the site. */
async function loadedFiles(page: Page): Promise<string[]> {
  const fromPage = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  const workers = page.workers().map((w) => w.url());
  return [...new Set([...fromPage, ...workers])]
    .filter((u) => u.startsWith(served.url))
    .map((u) => new URL(u).pathname.slice(new URL(served.url).pathname.length))
    .filter((p) => /\.(js|mjs|css|wasm)$/.test(p));
}

/** Where each of the page's service workers stands (for a failure's message). */
async function workerStates(page: Page): Promise<string> {
  return page
    .evaluate(async () => {
      const r = await navigator.serviceWorker.getRegistration();
      const at = (w: ServiceWorker | null | undefined) => (w ? `${w.state} ${new URL(w.scriptURL).pathname}` : 'none');
      return JSON.stringify({
        controller: at(navigator.serviceWorker.controller),
        active: at(r?.active),
        waiting: at(r?.waiting),
        installing: at(r?.installing),
        main: document.querySelector('script[type=module][src*="assets/main-"]')?.getAttribute('src'),
        // The states the waiting worker went through after the click (absent: this document is a reload).
        waitingWent: (window as { waitingWent?: string[] }).waitingWent ?? 'absent',
      });
    })
    .catch((e: Error) => `unreadable (${e.message})`);
}

describe('a new build', () => {
  it('is offered while the page keeps running the old one, and afterwards every chunk comes from the new build', async () => {
    const a = mainChunk(E2E_DIR);
    const b = mainChunk(buildB);
    expect(a).not.toBe(b);
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // Navigations wait for the state the test needs (below), never for 'load' under Playwright's
    // 30 s default: on a loaded machine the service worker's install and the shell's chunks can take longer.
    await page.goto(served.url + '?modelPack=tiny', { waitUntil: 'commit' });
    await page.waitForSelector('[data-testid=offline-status][data-shell=ready]', { timeout: 120_000 });
    expect(await page.getByTestId('update-prompt').count()).toBe(0);

    deploy(buildB);
    await page.reload({ waitUntil: 'commit' });
    await page.getByTestId('update-prompt').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('update-prompt').innerText()).toMatch(/new version/i);
    // Still build A, whole: its shell, and its lazily loaded chunks still load from its own cache.
    expect(await page.locator('script[type=module][src*="assets/main-"]').getAttribute('src')).toBe(`./${a}`);
    expect(await page.getByTestId('offline-status').getAttribute('data-build')).toBe('');
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    await page.locator('a[href="#/eval"]').click();
    await page.getByRole('heading', { level: 2 }).first().waitFor({ timeout: 120_000 });
    for (const f of await loadedFiles(page)) expect(existsSync(join(E2E_DIR, f)), `${f} is from build A`).toBe(true);
    await page.locator('a[href="#/"]').click();

    // Accepting runs a chain the page does not bound in time: the waiting worker activates (deleting
    // A's precache), takes control, the page reloads and B's shell loads from the new cache. Wait for
    // its end state, a document running B's main chunk, not for a 'load' event under a 30 s default
    // (which a loaded machine overran).
    await page.evaluate(async () => {
      const waiting = (await navigator.serviceWorker.getRegistration())?.waiting;
      const went: string[] = [];
      (window as { waitingWent?: string[] }).waitingWent = went;
      waiting?.addEventListener('statechange', () => went.push(waiting.state));
    });
    await page.getByTestId('update-reload').click();
    await page
      .locator(`script[type=module][src="./${b}"]`)
      .waitFor({ state: 'attached', timeout: 120_000 })
      .catch(async (e: Error) => {
        throw new Error(`${e.message}\nthe page's service workers then: ${await workerStates(page)}`);
      });
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    expect(await page.locator('script[type=module][src*="assets/main-"]').getAttribute('src')).toBe(`./${b}`);
    expect(await page.getByTestId('offline-status').getAttribute('data-build')).toBe('B');
    expect(await page.getByTestId('update-prompt').count()).toBe(0);
    // Load the lazy parts too (the evaluation page), then check every file the page ran.
    await page.locator('a[href="#/eval"]').click();
    await page.getByRole('heading', { level: 2 }).first().waitFor({ timeout: 120_000 });
    const files = await loadedFiles(page);
    expect(files).toContain(b);
    expect(files.filter((f) => f.includes('.worker-')).length).toBeGreaterThan(0);
    for (const f of files) expect(existsSync(join(buildB, f)), `${f} is not in build B`).toBe(true);
    expect(files).not.toContain(a);
    expect(errors).toEqual([]);
    await context.close();
  });
});
