// A folder of real-shaped documents and a batch of hostile files go into the
// app as a user gives them (file picker, folder picker, Stop): every file ends
// up in the library or listed with its reason, nothing in them runs, and the
// main thread never runs a task of more than 50 ms (Chromium's trace; the
// PerformanceObserver 'longtask' wall time is reported beside it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { writeHostileSet, writeRealShapedSet } from '../doubles/document-sets';
import { useApp, lastReport } from './app-page';
import { ROOT } from './harness';
import { mainThreadTasks } from './main-thread';
import type { LibraryPageApi } from './pages/library-page';

const app = useApp('?modelPack=tiny');
const dir = mkdtempSync(join(tmpdir(), 'ingest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function docNames(page: Page): Promise<string[]> {
  return page.$$eval('[data-testid=doc]', (els) => els.map((e) => e.getAttribute('data-name') ?? ''));
}

describe('ingesting a batch', () => {
  it('a hostile batch: every file is in the library or listed with its reason, nothing runs, no long task', async () => {
    const hostile = writeHostileSet(join(dir, 'hostile'));
    const { page, errors } = await app.open();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const before = await docNames(page);
    const started = Date.now();
    const tasks = await mainThreadTasks(page, async () => {
      await page.getByTestId('file-input').setInputFiles(hostile.map((f) => join(dir, 'hostile', f.name)));
      await page.getByTestId('batch-report').waitFor({ timeout: 300_000 });
    });
    const seconds = (Date.now() - started) / 1000;
    const report = await lastReport(page);
    await expect
      .poll(() => page.getByTestId('doc').count())
      .toBe(before.length + hostile.filter((f) => f.expect === 'added').length);
    const names = await docNames(page);
    for (const f of hostile) {
      if (f.expect === 'added') expect(names, f.name).toContain(f.name);
      else expect(report.refused.find((r) => r.name === f.name)?.text, f.name).toMatch(f.expect);
    }
    const refusedCount = hostile.filter((f) => f.expect !== 'added').length;
    expect(report.summary).toBe(`${hostile.length - refusedCount} added, ${refusedCount} refused`);
    expect(report.notes).toEqual([{ name: 'latin1.txt', text: expect.stringMatching(/Latin-1/) }]);
    for (const f of hostile.filter((h) => h.title)) {
      expect(await page.locator(`[data-testid=doc][data-name="${f.name}"] .doc-title`).innerText()).toBe(f.title);
    }
    // Nothing in the files ran or loaded.
    expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await page.locator('#root img, #root script, #root iframe, #root object').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    console.log(
      `[ingest] hostile set: ${hostile.length} files in ${seconds.toFixed(1)} s; longest main-thread task ${tasks.longestCpu} ms of CPU ` +
        `(${tasks.overCpu} over 50 ms), ${tasks.longestWall} ms of wall time (longtask observer)`,
    );
    expect(tasks.longestCpu).toBeLessThanOrEqual(50);
  });

  it('a folder of 120 real-shaped documents goes in whole, non-documents skipped with a count, no long task', async () => {
    const set = writeRealShapedSet(ROOT, join(dir, 'real'), 'corpus', 120);
    expect(set.documents.length).toBeGreaterThanOrEqual(100);
    const { page, errors } = await app.open();
    const before = await docNames(page);
    const started = Date.now();
    const tasks = await mainThreadTasks(page, async () => {
      await page.getByTestId('folder-input').setInputFiles(join(dir, 'real', 'corpus'));
      await page.getByTestId('batch-report').waitFor({ timeout: 600_000 });
    });
    const seconds = (Date.now() - started) / 1000;
    const report = await lastReport(page);
    expect(report.refused).toEqual([]);
    expect(report.summary).toBe(
      `${set.documents.length} added, 0 refused, ${set.nonDocuments} skipped (not documents)`,
    );
    await expect.poll(() => page.getByTestId('doc').count()).toBe(before.length + set.documents.length);
    expect((await docNames(page)).sort()).toEqual([...before, ...set.documents].sort());
    expect(errors).toEqual([]);
    // A long library scrolls in its own box, and Find narrows it to a document by its name.
    const list = page.getByTestId('doc-list');
    const box = await list.evaluate((e) => ({
      client: e.clientHeight,
      scroll: e.scrollHeight,
      page: document.documentElement.scrollHeight,
    }));
    expect(box.scroll).toBeGreaterThan(box.client);
    expect(box.page).toBeLessThan(box.scroll);
    const one = set.documents[7]!;
    await page.getByTestId('doc-find').fill(one.split('/').at(-1)!);
    await expect.poll(() => docNames(page)).toEqual([one]);
    await page.getByTestId('doc-find').fill('');
    await expect.poll(async () => (await docNames(page)).length).toBe(before.length + set.documents.length);
    console.log(
      `[ingest] real-shaped set: ${set.documents.length} documents, ${(set.bytes / 1e6).toFixed(2)} MB in ${seconds.toFixed(1)} s ` +
        `(${(set.documents.length / seconds).toFixed(1)} documents/s, ${(set.bytes / 1e6 / seconds).toFixed(2)} MB/s); ` +
        `longest main-thread task ${tasks.longestCpu} ms of CPU (${tasks.overCpu} over 50 ms), ${tasks.longestWall} ms of wall time (longtask observer)`,
    );
    expect(tasks.longestCpu).toBeLessThanOrEqual(50);
  });

  it('Stop keeps the finished documents (the one being embedded by its words), and a reload shows the same library', async () => {
    const set = writeRealShapedSet(ROOT, join(dir, 'stop'), 'shelf', 60);
    const { page } = await app.open();
    const before = await docNames(page);
    await page.getByTestId('folder-input').setInputFiles(join(dir, 'stop', 'shelf'));
    await expect
      .poll(async () => (await docNames(page)).length, { timeout: 300_000, interval: 200 })
      .toBeGreaterThan(before.length + 3);
    await page.getByTestId('stop-batch').click();
    await page.getByTestId('batch-report').waitFor({ timeout: 120_000 });
    const report = await lastReport(page);
    const added = Number(/^(\d+) added/.exec(report.summary)?.[1]);
    expect(report.summary).toMatch(/stopped, \d+ not tried/);
    expect(added).toBeLessThan(set.documents.length);
    await expect.poll(() => page.getByTestId('doc').count()).toBe(before.length + added);
    const after = await docNames(page);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).every((n) => set.documents.includes(n))).toBe(true);
    await page.reload();
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByTestId('doc').count()).toBe(after.length);
    expect(await docNames(page)).toEqual(after);
  });

  it('a stopped batch leaves the store and the index as before plus the finished documents, and the one it stopped in by its words', async () => {
    const context = await app.browser.newContext();
    app.track(context);
    const page = await context.newPage();
    await page.goto(`${app.url}test/browser/pages/library.html`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    type Api = LibraryPageApi;
    const call = <K extends keyof Api>(m: K, ...a: Parameters<Api[K]>) =>
      page.evaluate(
        ([mm, aa]) =>
          (window as unknown as { libraryTest: Record<string, (...x: unknown[]) => unknown> }).libraryTest[mm]!(...aa),
        [m, a] as [string, unknown[]],
      ) as Promise<Awaited<ReturnType<Api[K]>>>;
    await call('open', { dbName: 'stopped' });
    await call('addText', 'Kites', 'A kite flies when steady wind pushes against its sail.');
    const before = await call('list');
    // Each document has several embedding batches, so the stop lands inside document 3.
    const long = (k: number) =>
      Array.from(
        { length: 500 },
        (_, s) => `Document ${k} sentence ${s} about the river king and his apple bread.`,
      ).join(' ');
    const files = Array.from({ length: 6 }, (_, k) => ({ name: `doc-${k}.txt`, content: long(k) }));
    const r = await call('addStopping', files, 3);
    expect(r.aborted).toBe(true);
    // Document 3's words went in before its embedding began: it stays, found by them, and says it waits for its vectors.
    expect(r.added.map((d) => d.title)).toEqual(['doc-0', 'doc-1', 'doc-2', 'doc-3']);
    expect(r.notEmbedded).toEqual([
      { name: 'doc-3.txt', reason: 'adding was stopped before its passages were embedded' },
    ]);
    const after = await call('list');
    expect(after).toEqual([...before, ...r.added]);
    const passages = after.reduce((n, d) => n + d.passages, 0);
    expect(await call('size')).toBe(passages - r.added.at(-1)!.passages);
    // Opened again, the library embeds the document that waited: every passage has its vector.
    await call('open', { dbName: 'stopped' });
    expect(await call('list')).toEqual(after);
    await expect.poll(() => call('size'), { timeout: 60_000 }).toBe(passages);
  });
});
