// The source viewer as a user meets it, in headless Chromium on the e2e build (tiny models,
// evidence-only mode, so no generator runs):
//   1. storage: what keeping the original files costs, as the browser counts it
//      (navigator.storage.estimate), for the shipped sample and for a real folder of
//      documents (Debian's /usr/share/doc: PDF manuals, HTML, text), once with originals kept
//      and once without, in fresh profiles;
//   2. time to show a page of a large PDF (BENCH_VIEWER_PDF, default Valgrind's 397-page
//      manual from /usr/share/doc): from the click on the passage to the page drawn with the
//      sentence marked, the first time (pdf.js and the file loaded) and turning to the next page.
// BENCH_VIEWER_FOLDER picks the folder (default: about 100 files gathered from /usr/share/doc).
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { E2E_DIR, launchBrowser, serveDir } from '../test/browser/harness';

const DOC_ROOT = '/usr/share/doc';

/** Up to `n` documents from /usr/share/doc: every PDF (gunzipped), then HTML and text files, biggest folders first. */
function gatherFolder(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'viewer-docs-'));
  const picked: string[] = [];
  const walk = (d: string, out: string[]) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, out);
      else if (e.isFile()) out.push(p);
    }
  };
  const all: string[] = [];
  walk(DOC_ROOT, all);
  const pdfs = all.filter((p) => /\.pdf(\.gz)?$/.test(p));
  const html = all.filter((p) => /\.html?$/.test(p) && statSync(p).size > 2000);
  const text = all.filter((p) => /(README|\.txt)$/.test(p) && statSync(p).size > 2000);
  for (const p of [...pdfs, ...html.slice(0, 70), ...text]) {
    if (picked.length >= n) break;
    const name = `${picked.length.toString().padStart(3, '0')}-${basename(p).replace(/\.gz$/, '')}`;
    if (p.endsWith('.gz')) writeFileSync(join(dir, name), gunzipSync(readFileSync(p)));
    else copyFileSync(p, join(dir, name));
    picked.push(name);
  }
  return dir;
}

async function usage(page: Page): Promise<number> {
  return page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
}

/**
 * What the library holds, read from its IndexedDB: the original files' bytes, and for comparison
 * the documents' records (their text), the passages (as JSON) and the vectors. The browser's own
 * estimate moves with the service worker's precache and LevelDB compaction, so it is reported
 * beside this, not instead.
 */
interface LibraryBytes {
  documents: number;
  text: number;
  passages: number;
  vectors: number;
  originals: number;
  kept: number;
}

// A string, not a function: tsx's helpers (__name) do not exist in the page.
const LIBRARY_BYTES = `(async () => {
  const db = await new Promise((ok, fail) => { const r = indexedDB.open('selfrag-library'); r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
  const all = (store) => new Promise((ok, fail) => { const r = db.transaction(store).objectStore(store).getAll(); r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
  const [docs, passages, vectors, originals] = await Promise.all(['documents', 'passages', 'vectors', 'originals'].map(all));
  db.close();
  const enc = new TextEncoder();
  const json = (xs) => xs.reduce((n, x) => n + enc.encode(JSON.stringify(x)).length, 0);
  return {
    documents: docs.length, text: json(docs), passages: json(passages),
    vectors: vectors.reduce((n, v) => n + v.data.byteLength, 0),
    originals: originals.reduce((n, o) => n + o.blob.size, 0), kept: originals.length,
  };
})()`;

async function libraryBytes(page: Page): Promise<LibraryBytes> {
  return (await page.evaluate(LIBRARY_BYTES)) as LibraryBytes;
}

const breakdown = (b: LibraryBytes) =>
  `${b.documents} documents: originals ${mb(b.originals)} (${b.kept} files), document records with text ${mb(b.text)}, passages ${mb(b.passages)}, vectors ${mb(b.vectors)}`;

async function openApp(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`${url}?modelPack=tiny`);
  await page.getByTestId('doc').first().waitFor({ timeout: 180_000 });
  await page.getByTestId('use-evidence-only').click();
  await page.getByTestId('evidence-only').waitFor();
  return page;
}

async function addFolder(page: Page, files: string[]): Promise<void> {
  const reports = await page.getByTestId('batch-report').count();
  await page.getByTestId('file-input').setInputFiles(files);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=batch-report]').length > n, reports, {
    timeout: 3_600_000,
    polling: 1000,
  });
}

const mb = (b: number) => `${(b / 1e6).toFixed(2)} MB`;

export async function run(): Promise<void> {
  const folder = process.env.BENCH_VIEWER_FOLDER ?? gatherFolder(Number(process.env.BENCH_VIEWER_FILES ?? 100));
  const files = readdirSync(folder).map((f) => join(folder, f));
  const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
  const pdf = process.env.BENCH_VIEWER_PDF ?? '/usr/share/doc/valgrind/valgrind_manual.pdf.gz';
  if (!existsSync(E2E_DIR))
    throw new Error(
      'build the e2e site first (the browser tests do, or `npx vite build --mode e2e --outDir dist-test`)',
    );
  const served = await serveDir(E2E_DIR);
  const browser = await launchBrowser({ webgpu: false });
  try {
    console.log(`folder: ${files.length} files, ${mb(bytes)} (${files.filter((f) => f.endsWith('.pdf')).length} PDF)`);
    const rows: string[] = [];
    for (const keep of [true, false]) {
      const page = await openApp(browser, served.url);
      // Let the service worker finish its precache, so the estimate moves with the library only.
      await page.evaluate(() =>
        Promise.race([navigator.serviceWorker?.ready, new Promise((r) => setTimeout(r, 10_000))]).then(() => true),
      );
      const sample = await libraryBytes(page);
      if (!keep) await page.getByTestId('keep-originals').uncheck();
      const before = await usage(page);
      const started = Date.now();
      await addFolder(page, files);
      const after = await usage(page);
      const summary = await page.getByTestId('batch-summary').last().innerText();
      if (keep) rows.push(`sample library: ${breakdown(sample)}`);
      rows.push(
        `originals ${keep ? 'kept' : 'not kept'}: folder added in ${((Date.now() - started) / 1000).toFixed(0)} s (${summary}); library then ${breakdown(await libraryBytes(page))}; ` +
          `browser estimate +${mb(after - before)}`,
      );
      await page.context().close();
    }
    for (const r of rows) console.log(r);

    // The large PDF: add it alone, ask for a sentence on a late page, open it in the viewer.
    const big = mkdtempSync(join(tmpdir(), 'viewer-big-'));
    const bigPath = join(big, basename(pdf).replace(/\.gz$/, ''));
    writeFileSync(bigPath, pdf.endsWith('.gz') ? gunzipSync(readFileSync(pdf)) : readFileSync(pdf));
    const page = await openApp(browser, served.url);
    await addFolder(page, [bigPath]);
    const question =
      process.env.BENCH_VIEWER_QUESTION ?? 'How does Helgrind detect lock ordering problems between threads?';
    await page.fill('#question', question);
    await page.getByTestId('ask').click();
    await page.waitForSelector('[data-testid=evidence]:not([data-status=running])', { timeout: 300_000 });
    const title = await page.locator(`[data-testid=doc][data-name="${basename(bigPath)}"] .doc-title`).innerText();
    const item = page.getByTestId('evidence-passage').filter({ hasText: title }).first();
    const label = await item.getByTestId('evidence-open-source').innerText();
    const t0 = Date.now();
    await item.getByTestId('evidence-open-source').click();
    await page.locator('[data-testid=pdf-frame][data-marked]').waitFor({ timeout: 300_000 });
    const firstClick = Date.now() - t0;
    const inViewer = await page.getByTestId('pdf-frame').getAttribute('data-first-shown-ms');
    const marked = await page.getByTestId('pdf-frame').getAttribute('data-marked');
    const pageNo = await page.getByTestId('pdf-frame').getAttribute('data-page');
    const t1 = Date.now();
    await page.getByTestId('page-next').click();
    await page
      .locator(`[data-testid=pdf-frame][data-page="${Number(pageNo) + 1}"][data-marked]`)
      .waitFor({ timeout: 120_000 });
    const turn = Date.now() - t1;
    await page.keyboard.press('Escape');
    const t2 = Date.now();
    await item.getByTestId('evidence-open-source').click();
    await page.locator('[data-testid=pdf-frame][data-marked]').waitFor({ timeout: 120_000 });
    const again = Date.now() - t2;
    mkdirSync(join(E2E_DIR, '..', 'test-output'), { recursive: true });
    await page.screenshot({ path: join(E2E_DIR, '..', 'test-output', 'viewer-large-pdf.png') });
    console.log(
      `large PDF ${basename(bigPath)} (${mb(statSync(bigPath).size)}): citation "${label.replace('¶ ', '')}" → page ${pageNo} shown with ${marked} text items marked in ${firstClick} ms from the click ` +
        `(${inViewer} ms after the viewer opened); next page ${turn} ms; opened again ${again} ms`,
    );
    rmSync(big, { recursive: true, force: true });
    await page.context().close();
  } finally {
    await browser.close();
    await served.close();
    if (!process.env.BENCH_VIEWER_FOLDER) rmSync(folder, { recursive: true, force: true });
  }
}
