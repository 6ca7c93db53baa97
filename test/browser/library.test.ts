// The document library in Chromium: IndexedDB persistence across reloads, safe
// HTML ingestion, PDFs through pdfjs's worker, voy in the index worker, and the
// Node indexer's output loaded by the page.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexFolder } from '../../scripts/index-folder';
import { createEmbedder } from '../../workers/evaluator/embedder';
import { HashEmbedder } from '../doubles/hash-embedder';
import type { LibraryPageApi } from './pages/library-page';
import { E2E_DIR, OUTPUT_DIR, ROOT, launchBrowser, serveDir, type Served } from './harness';

type Api = LibraryPageApi;
let browser: Browser;
let served: Served;
const PAGE = 'test/browser/pages/library.html';

beforeAll(async () => {
  browser = await launchBrowser({ webgpu: false });
  served = await serveDir(E2E_DIR);
});
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(served.url + PAGE);
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
  return { page, errors };
}

/** Calls the page's test API by method name, with JSON-serialisable arguments. */
function call<K extends keyof Api>(
  page: Page,
  method: K,
  ...args: Parameters<Api[K]>
): Promise<Awaited<ReturnType<Api[K]>>> {
  return page.evaluate(
    ([m, a]) =>
      (window as unknown as { libraryTest: Record<string, (...x: unknown[]) => unknown> }).libraryTest[m]!(...a),
    [method, args] as [string, unknown[]],
  ) as Promise<Awaited<ReturnType<Api[K]>>>;
}

describe('document library in the browser', () => {
  it('persists documents and vectors across a reload', async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(served.url + PAGE);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    await call(page, 'open', { dbName: 'persist' });
    await call(page, 'addText', 'Kites', 'A kite flies when steady wind pushes against its sail.');
    await call(page, 'addFile', 'bees.md', '# Bees\n\nForager bees perform a waggle dance.');
    await page.reload();
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    const opened = await call(page, 'open', { dbName: 'persist' });
    expect(opened.size).toBe(2);
    expect((await call(page, 'list')).map((d) => d.title)).toEqual(['Kites', 'Bees']);
    const [top] = await call(page, 'retrieve', 'steady wind kite', 1);
    expect(top?.title).toBe('Kites');
    // Only the question was embedded after the reload: the vectors came from IndexedDB.
    expect(await call(page, 'embeddedTexts')).toBe(1);
    await page.screenshot({ path: join(OUTPUT_DIR, 'library-persist.png') });
    await ctx.close();
  });

  it('a second tab sees documents added in the first without a reload', async () => {
    const ctx = await browser.newContext();
    const [one, two] = [await ctx.newPage(), await ctx.newPage()];
    for (const page of [one, two]) {
      await page.goto(served.url + PAGE);
      await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
      await call(page, 'open', { dbName: 'tabs' });
    }
    await call(one, 'addText', 'Lighthouses', 'A Fresnel lens makes the beam of a lighthouse visible far out at sea.');
    await two.waitForFunction(async () => (await (window as unknown as { libraryTest: Api }).libraryTest.size()) === 1);
    expect((await call(two, 'retrieve', 'Fresnel lens lighthouse', 1))[0]?.title).toBe('Lighthouses');
    await ctx.close();
  });

  it('ingests HTML with scripts and event handlers as text, and nothing in it runs or loads', async () => {
    const { page, errors } = await openPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await call(page, 'open', { dbName: 'html' });
    const html = `<html><head><title>Hostile</title><script>window.__pwned = 'script'; alert('script')</script></head>
      <body><p>Visible fact about tides.</p><img src="tracker.png" onerror="window.__pwned='onerror'; alert('img')">
      <iframe src="javascript:alert('iframe')"></iframe><svg onload="window.__pwned='svg'"></svg></body></html>`;
    const res = await call(page, 'addFile', 'hostile.html', html, 'text/html');
    expect(res.added).toEqual([expect.objectContaining({ title: 'Hostile', format: 'html', passages: 1 })]);
    expect(await call(page, 'passages', res.added[0]!.id)).toEqual(['Visible fact about tides.']);
    await page.waitForTimeout(300); // give any stray handler a chance to fire
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(served.requests.some((p) => p.includes('tracker.png'))).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses bad files by name and reason, and extracts PDF text through pdfjs', async () => {
    const { page } = await openPage();
    await call(page, 'open', { dbName: 'bad' });
    expect((await call(page, 'addFile', 'empty.txt', '')).refused).toEqual([
      { name: 'empty.txt', reason: 'the file is empty' },
    ]);
    expect((await call(page, 'addFile', 'nul.txt', 'a\u0000b')).refused[0]?.reason).toMatch(/binary/);
    const pdf = await call(page, 'addPdf', 'report.pdf', [['Tides rise twice a day.'], ['The moon pulls the sea.']]);
    expect(pdf.added).toEqual([expect.objectContaining({ format: 'pdf', title: 'report' })]);
    expect((await call(page, 'passages', pdf.added[0]!.id)).join(' ')).toBe(
      'Tides rise twice a day.\n\nThe moon pulls the sea.',
    );
    await page.close();
  });

  it('removes a document and its passages; voy in the worker returns what flat returns', async () => {
    const { page } = await openPage();
    const results: Record<string, string[]> = {};
    for (const kind of ['flat', 'voy'] as const) {
      expect((await call(page, 'open', { dbName: `kind-${kind}`, indexKind: kind })).kind).toBe(kind);
      await call(page, 'addText', 'Bread', 'Sourdough bread rises with a starter of wild yeast.');
      const [bees] = await call(page, 'addText', 'Bees', 'Bees dance to show where flowers are.');
      await call(page, 'addText', 'Tides', 'The moon raises tides on the sea.');
      await call(page, 'remove', bees!.id);
      expect(await call(page, 'size')).toBe(2);
      results[kind] = (await call(page, 'retrieve', 'bees dance flowers bread', 5)).map((h) => h.title);
    }
    expect(results.voy).toEqual(results.flat);
    expect(results.flat).not.toContain('Bees');
    await page.close();
  });

  it('the compact index is saved in OPFS by the worker and re-opened after a reload; adds after that are kept', async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const ready = async () => {
      await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    };
    await page.goto(served.url + PAGE);
    await ready();
    expect((await call(page, 'open', { dbName: 'compact-saved', indexKind: 'compact' })).kind).toBe('compact');
    await call(page, 'addText', 'Kites', 'A kite flies when steady wind pushes against its sail.');
    await call(page, 'addText', 'Bees', 'Forager bees perform a waggle dance.');
    await call(page, 'addText', 'Tides', 'The moon raises tides on the sea.');
    expect(await call(page, 'indexStatus')).toMatchObject({ kind: 'compact', saved: true });
    const before = await call(page, 'retrieve', 'steady wind kite', 3);
    await page.reload();
    await ready();
    expect((await call(page, 'open', { dbName: 'compact-saved', indexKind: 'compact' })).size).toBe(3);
    expect((await call(page, 'indexStatus')).reason).toMatch(
      /re-opened from its saved files without reading the float vectors/,
    );
    expect(await call(page, 'retrieve', 'steady wind kite', 3)).toEqual(before);
    await call(page, 'addText', 'Bread', 'Sourdough bread rises with a starter of wild yeast.');
    await page.reload();
    await ready();
    const third = await call(page, 'open', { dbName: 'compact-saved', indexKind: 'compact' });
    expect(third).toMatchObject({ size: 4, warnings: [] });
    expect((await call(page, 'retrieve', 'sourdough starter yeast', 1))[0]!.title).toBe('Bread');
    // The default is 'auto': a small library is served by the flat index, and says why.
    await call(page, 'open', { dbName: 'auto-small' });
    await call(page, 'addText', 'Kites', 'A kite flies when steady wind pushes against its sail.');
    expect((await call(page, 'indexStatus')).reason).toMatch(/^flat exact search: 1 passage, below the 200,000/);
    await ctx.close();
  });

  it('loads the shipped sample corpus on a first visit', async () => {
    const { page } = await openPage();
    await call(page, 'open', { dbName: 'first-visit', seed: true });
    const docs = await call(page, 'list');
    expect(docs.length).toBeGreaterThanOrEqual(4);
    expect(docs.every((d) => d.origin === 'sample')).toBe(true);
    await page.close();
  });

  it('saves the word index as one Blob in IndexedDB and finds passages by their words after a reload', async () => {
    const { page, errors } = await openPage();
    await call(page, 'open', { dbName: 'words' });
    await call(page, 'addText', 'Valves', 'Valve XK-4471 leaks when its gasket hardens in the cold.');
    await call(page, 'addText', 'Kites', 'A kite flies when steady wind pushes against its sail.');
    const saved = await call(page, 'savedWordIndex', 'words');
    expect(saved).toMatchObject({ format: 'words-1', blob: true, strings: 0 });
    expect(saved.size).toBeGreaterThan(64);
    await page.reload();
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    expect((await call(page, 'open', { dbName: 'words' })).warnings).toEqual([]);
    expect((await call(page, 'retrieveWords', 'xk-4471', 2)).map((h) => h.title)).toEqual(['Valves']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('loads an index built by the Node indexer at start-up, without embedding a passage', async () => {
    // The indexer writes next to the test page, as a site would ship `index/` next to its page.
    const site = join(E2E_DIR, 'test/browser/pages/indexed-site');
    rmSync(site, { recursive: true, force: true });
    mkdirSync(site, { recursive: true });
    const built = await indexFolder({
      folder: join(ROOT, 'public/sample'),
      out: join(site, 'index'),
      embedder: new HashEmbedder(256),
      model: 'hash-256',
    });
    const { page } = await openPage();
    const opened = await call(page, 'open', {
      dbName: 'prebuilt',
      seed: true,
      site: 'indexed-site/',
      embedderId: 'hash-256',
    });
    expect(opened).toEqual({ warnings: [], size: built.passages, kind: 'flat' });
    const docs = await call(page, 'list');
    expect(docs).toHaveLength(built.documents);
    expect(docs.every((d) => d.origin === 'prebuilt')).toBe(true);
    expect(await call(page, 'embeddedTexts')).toBe(0);
    // The site's word index came with it: fetched, not rebuilt.
    expect(served.requests).toContain('/test/browser/pages/indexed-site/index/words.bin');
    const [top] = await call(page, 'retrieve', 'tidal bulges moon spring tides', 1);
    expect(top?.title).toBe('Why the Sea Has Tides');
    await page.close();
  });
});

describe('the app with a pre-built index', () => {
  it('lists the documents the Node indexer embedded (with the same tiny model) on first visit', async () => {
    // A site = the e2e build plus an index/ folder; linked, so the shared build stays untouched.
    const site = mkdtempSync(join(tmpdir(), 'indexed-app-'));
    for (const entry of readdirSync(E2E_DIR)) symlinkSync(join(E2E_DIR, entry), join(site, entry));
    const docs = mkdtempSync(join(tmpdir(), 'docs-'));
    writeFileSync(
      join(docs, 'kites.md'),
      '# Flying Kites\n\nA kite needs a steady wind of about fifteen kilometres an hour.',
    );
    writeFileSync(
      join(docs, 'lighthouses.html'),
      '<title>Lighthouses</title><p>A Fresnel lens makes a lighthouse beam visible far out at sea.</p>',
    );
    const embedder = createEmbedder({
      model: { id: 'tiny/embedder' },
      source: 'local',
      localModelPath: join(ROOT, 'test/fixtures/models'),
    });
    await indexFolder({ folder: docs, out: join(site, 'index'), embedder, model: 'tiny/embedder' });
    await embedder.dispose();
    const appServer = await serveDir(site);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${appServer.url}?modelPack=tiny`);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="doc"]').length >= 2, undefined, {
        timeout: 120_000,
      });
      const titles = await page.locator('[data-testid="doc"] .doc-title').allTextContents();
      expect(titles.sort()).toEqual(['Flying Kites', 'Lighthouses']);
      expect(appServer.requests).toContain('/index/vectors.bin');
      expect(appServer.requests.some((p) => p.startsWith('/sample/'))).toBe(false);
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(OUTPUT_DIR, 'library-prebuilt-app.png') });
    } finally {
      await page.close();
      await appServer.close();
    }
  });
});
