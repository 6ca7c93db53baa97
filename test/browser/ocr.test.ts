// Scanned pages and photos of pages become searchable text in the browser: a page
// this test renders itself from a PDF it writes (known text) goes in as an
// image-only PDF, a PNG and a low-quality JPEG, each recognised by tesseract.js in
// a worker; a phrase on it retrieves it; hostile images and an over-long scan are
// refused with their reasons while the rest of the batch goes in; the main thread
// never runs a task over 50 ms of CPU; and every request stays on the site.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../doubles/image-bytes';
import { imagePdf } from '../doubles/image-pdf';
import { useApp, lastReport } from './app-page';
import { mainThreadTasks } from './main-thread';
import type { LibraryPageApi } from './pages/library-page';
import type { ScanPageApi } from './pages/scan-page';

const app = useApp('?modelPack=tiny');
const dir = mkdtempSync(join(tmpdir(), 'ocr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Files on disk, given to the file input by path as a user's picker does (buffers would be decoded on the page's main thread by the test driver). */
function onDisk(files: { name: string; buffer: Buffer }[]): string[] {
  return files.map((f) => {
    const path = join(dir, f.name);
    writeFileSync(path, f.buffer);
    return path;
  });
}

const PAGES = {
  lighthouse: [
    'The lighthouse keeper recorded seventeen storms in the winter of 1893.',
    'Every storm was entered in a green ledger with the wind direction.',
  ],
  orchard: [
    'Our orchard gave four hundred kilos of pears after the late frost.',
    'The cider press was repaired by the blacksmith from the valley.',
  ],
  invoice: [
    'Invoice 2291 for the copper roof repairs is due on the first of May.',
    'Please pay the amount to the parish account before the spring fair.',
  ],
  letter: [
    'Dear Margaret, the swallows returned to the barn on Tuesday morning.',
    'Father says the hay will be ready to cut within a fortnight.',
  ],
  receipt: [
    'Receipt from the hardware shop: twelve brass hinges and a tin of varnish.',
    'Paid in cash, thank you for your custom, see you again soon.',
  ],
};

type Scan = Awaited<ReturnType<ScanPageApi['scan']>>;
const scans = {} as Record<keyof typeof PAGES, Scan>;
let blankPng = '';

const b64 = (s: string) => Buffer.from(s, 'base64');
const grey = (s: Scan) => ({ width: s.width, height: s.height, zlib: new Uint8Array(b64(s.greyZlib)) });

async function pageApi<A>(page: Page, global: string) {
  return <K extends keyof A & string>(m: K, ...a: unknown[]) =>
    page.evaluate(
      ([g, mm, aa]) =>
        (window as unknown as Record<string, Record<string, (...x: unknown[]) => unknown>>)[g]![mm]!(...aa),
      [global, m, a] as [string, string, unknown[]],
    ) as Promise<A[K] extends (...x: never[]) => Promise<infer R> ? R : never>;
}

beforeAll(async () => {
  // The "scanner": its own tab, done before any measurement.
  const context = await app.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${app.url}test/browser/pages/scan.html`);
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
  const call = await pageApi<ScanPageApi>(page, 'scanTest');
  for (const [key, lines] of Object.entries(PAGES)) {
    // A phone's JPEG is low quality and lower resolution; the scanner's pages are 200 dpi.
    scans[key as keyof typeof PAGES] = await call('scan', lines, key === 'receipt' ? 150 : 200, 0.4);
  }
  blankPng = await call('blank', 1200, 1600);
  await context.close();
});

describe('scanned documents', () => {
  it('scans and photos go in as text, hostile images are refused with reasons, no long task, nothing leaves the site', async () => {
    const { page, errors } = await app.open();
    const offsite: string[] = [];
    page.context().on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(app.url) && !url.startsWith('data:') && !url.startsWith('blob:')) offsite.push(url);
    });
    const before = await page.getByTestId('doc').count();
    const files = [
      {
        name: 'lighthouse-scan.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(imagePdf([grey(scans.lighthouse)])),
      },
      {
        name: 'two-page-scan.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(imagePdf([grey(scans.orchard), grey(scans.invoice)])),
      },
      { name: 'letter.png', mimeType: 'image/png', buffer: b64(scans.letter.png) },
      { name: 'receipt.jpg', mimeType: 'image/jpeg', buffer: b64(scans.receipt.jpeg) },
      {
        name: 'bomb.png',
        mimeType: 'image/png',
        buffer: Buffer.from(png(30000, 30000, deflateSync(new Uint8Array(4096)))),
      },
      {
        name: 'torn.png',
        mimeType: 'image/png',
        buffer: Buffer.from(png(800, 600, new Uint8Array(Array.from({ length: 3000 }, (_, i) => (i * 131) & 0xff)))),
      },
      { name: 'sky.png', mimeType: 'image/png', buffer: b64(blankPng) },
      {
        name: 'IMG_0042.heic',
        mimeType: 'image/heic',
        buffer: Buffer.from([0, 0, 0, 24, ...Buffer.from('ftypheic'), 0, 0, 0, 0, 0, 0, 0, 0]),
      },
      // 1500 scanned pages sharing one small image: a few hundred kilobytes that would take hours to recognise.
      {
        name: 'archive.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(
          imagePdf(
            [{ width: 8, height: 8, zlib: new Uint8Array(deflateSync(new Uint8Array(64).fill(255))) }],
            new Array(1500).fill(0),
          ),
        ),
      },
    ];
    const paths = onDisk(files);
    const started = Date.now();
    let sawPages = '';
    const tasks = await mainThreadTasks(page, async () => {
      await page.getByTestId('file-input').setInputFiles(paths);
      // The batch progress counts pages while a scan is recognised.
      sawPages = await page
        .getByTestId('progress')
        .filter({ hasText: 'pages recognised' })
        .first()
        .innerText({ timeout: 120_000 })
        .catch(() => '');
      await page.getByTestId('batch-report').waitFor({ timeout: 600_000 });
    });
    const seconds = (Date.now() - started) / 1000;
    const report = await lastReport(page);
    expect(report.summary).toBe('4 added, 5 refused');
    const refused = Object.fromEntries(report.refused.map((r) => [r.name, r.text]));
    expect(refused['bomb.png']).toMatch(/30000 × 30000 pixels.*not opened/);
    expect(refused['torn.png']).toMatch(/damaged and could not be decoded/);
    expect(refused['sky.png']).toMatch(/no text was recognised in the image/);
    expect(refused['IMG_0042.heic']).toMatch(/HEIC.*JPEG/);
    expect(refused['archive.pdf']).toMatch(/1500 scanned pages.*split it/);
    const notes = report.notes.map((n) => `${n.name}: ${n.text}`).join('\n');
    expect(notes).toMatch(/lighthouse-scan\.pdf: .*its page had no text layer and was recognised/);
    expect(notes).toMatch(/two-page-scan\.pdf: .*2 of its 2 pages had no text layer and were recognised/);
    expect(notes).toMatch(/letter\.png: .*its text was recognised from the image/);
    expect(sawPages).toMatch(/\d+ of \d+ pages recognised/);
    await expect.poll(() => page.getByTestId('doc').count()).toBe(before + 4);
    expect(errors).toEqual([]);
    expect(offsite).toEqual([]);
    console.log(
      `[ocr] batch of ${files.length} files (5 scanned pages) in ${seconds.toFixed(1)} s; longest main-thread task ${tasks.longestCpu} ms of CPU ` +
        `(${tasks.overCpu} over 50 ms), ${tasks.longestWall} ms of wall time (longtask observer)`,
    );
    expect(tasks.longestCpu).toBeLessThanOrEqual(50);
  });

  it('a phrase written on a scanned page, a PNG and a low-quality JPEG retrieves that page', async () => {
    const context = await app.browser.newContext();
    app.track(context);
    const page = await context.newPage();
    await page.goto(`${app.url}test/browser/pages/library.html`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    const call = await pageApi<LibraryPageApi>(page, 'libraryTest');
    await call('open', { dbName: 'ocr-retrieval' });
    await call('addText', 'Bees', 'Forager bees perform a waggle dance to show the direction of flowers.');
    const r = await call('addBytes', [
      { name: 'lighthouse.pdf', base64: Buffer.from(imagePdf([grey(scans.lighthouse)])).toString('base64') },
      { name: 'letter.png', base64: scans.letter.png },
      { name: 'receipt.jpg', base64: scans.receipt.jpeg },
    ]);
    expect(r.refused).toEqual([]);
    expect(r.added.map((d) => d.format)).toEqual(['pdf', 'image', 'image']);
    for (const [phrase, title] of [
      ['green ledger wind direction', 'lighthouse'],
      ['swallows returned to the barn', 'letter'],
      ['brass hinges and a tin of varnish', 'receipt'],
    ] as const) {
      const hits = await call('retrieve', phrase, 3);
      expect(hits[0]?.title, phrase).toBe(title);
      expect(hits[0]?.text.toLowerCase()).toContain(phrase.split(' ')[0]);
    }
  });

  it('Stop during recognition ends it; the documents before it stay', async () => {
    const { page } = await app.open();
    const before = await page.getByTestId('doc').count();
    const long = imagePdf(
      [grey(scans.orchard), grey(scans.invoice), grey(scans.letter)],
      [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2],
    );
    await page.getByTestId('file-input').setInputFiles(
      onDisk([
        { name: 'receipt.jpg', buffer: b64(scans.receipt.jpeg) },
        { name: 'bundle.pdf', buffer: Buffer.from(long) },
      ]),
    );
    await page
      .getByTestId('progress')
      .filter({ hasText: /recognising the text of bundle\.pdf/ })
      .first()
      .waitFor({ timeout: 300_000 });
    await expect.poll(() => page.workers().some((w) => /ocr\.worker/.test(w.url()))).toBe(true);
    await page.getByTestId('stop-batch').click();
    await page.getByTestId('batch-report').waitFor({ timeout: 60_000 });
    const report = await lastReport(page);
    expect(report.summary).toMatch(/^1 added.*stopped/);
    await expect.poll(() => page.getByTestId('doc').count()).toBe(before + 1);
    expect(await page.locator('[data-testid=doc][data-name="receipt.jpg"]').count()).toBe(1);
    expect(await page.locator('[data-testid=doc][data-name="bundle.pdf"]').count()).toBe(0);
    // The recogniser went with the stopped library worker.
    await expect
      .poll(() => page.workers().filter((w) => /ocr\.worker|library\.worker/.test(w.url())).length, { timeout: 30_000 })
      .toBe(0);
  });

  it('downloads nothing of OCR until a scan is dropped; after one scan it recognises offline', async () => {
    const { page } = await app.open();
    const context = page.context();
    const requested: string[] = [];
    context.on('request', (r) => requested.push(r.url()));
    await page.waitForSelector('[data-testid=offline-status][data-shell=ready]', { timeout: 120_000 });
    const cachedOcr = () =>
      page.evaluate(async () => {
        const out: string[] = [];
        for (const name of await caches.keys())
          for (const r of await (await caches.open(name)).keys())
            if (/\/ocr\/|ocr\.worker/.test(r.url)) out.push(`${name} ${new URL(r.url).pathname}`);
        return out;
      });
    // The precache (every visitor) holds none of it.
    expect(await cachedOcr()).toEqual([]);
    expect(requested.filter((u) => /\/ocr\/|ocr\.worker/.test(u))).toEqual([]);
    await page
      .getByTestId('file-input')
      .setInputFiles(onDisk([{ name: 'letter-online.png', buffer: b64(scans.letter.png) }]));
    await page.locator('[data-testid=doc][data-name="letter-online.png"]').waitFor({ timeout: 300_000 });
    // Kept from that first use: the worker script, one core and the English model.
    const cached = await cachedOcr();
    expect(cached.some((c) => /\/assets\/ocr\.worker-[\w-]+\.js$/.test(c))).toBe(true);
    expect(cached.some((c) => c.endsWith('/worker.min.js'))).toBe(true);
    expect(cached.some((c) => /\/core\/tesseract-core-.*lstm\.wasm\.js$/.test(c))).toBe(true);
    expect(cached.some((c) => c.endsWith('/lang/eng.traineddata.gz'))).toBe(true);
    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('doc').first().waitFor({ timeout: 120_000 });
    await page
      .getByTestId('file-input')
      .setInputFiles(onDisk([{ name: 'receipt-offline.jpg', buffer: b64(scans.receipt.jpeg) }]));
    await page.getByTestId('batch-report').waitFor({ timeout: 300_000 });
    expect((await lastReport(page)).summary).toBe('1 added, 0 refused');
    // The list catches up with the report once the library has stored the document.
    await expect
      .poll(() => page.locator('[data-testid=doc][data-name="receipt-offline.jpg"]').count(), { timeout: 60_000 })
      .toBe(1);
  });
});
