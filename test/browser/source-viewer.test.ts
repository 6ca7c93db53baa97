// A citation opens the source where it was found: the PDF page with the supporting sentence
// marked on its text layer, the scanned image with the recognised lines boxed, an HTML page's
// text under its headings; a library written by the previous version still opens and says its
// places are not known; hostile PDFs and HTML shown in the viewer run and load nothing. Most
// tests use evidence-only mode (no WebGPU), which needs no generator to find a passage.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostilePdf } from '../doubles/hostile-pdf';
import { imagePdf } from '../doubles/image-pdf';
import { tinyPdf } from '../doubles/tiny-pdf';
import { useApp } from './app-page';
import { E2E_DIR, OUTPUT_DIR, launchBrowser, serveDir, writeEmbedHost, type Served } from './harness';
import { addFiles as addFilesIn, evidenceOnly, openEvidence } from './viewer-steps';
import type { ScanPageApi } from './pages/scan-page';

const QUERY = '?modelPack=tiny';
const app = useApp(QUERY);
const dir = mkdtempSync(join(tmpdir(), 'viewer-'));
const EVIL = 'http://evil.example';
let plain: Browser;

beforeAll(async () => {
  plain = await launchBrowser({ webgpu: false });
});
afterAll(async () => {
  await plain?.close();
  rmSync(dir, { recursive: true, force: true });
});

const addFiles = (page: Page, files: { name: string; bytes: Uint8Array | Buffer }[]) => addFilesIn(page, dir, files);
const shot = (page: Page, name: string) => page.screenshot({ path: join(OUTPUT_DIR, `viewer-${name}.png`) });

/** Every request that leaves the site, every dialog a script opened, every page error. */
function watch(page: Page) {
  const seen = { offsite: [] as string[], dialogs: [] as string[] };
  page.context().on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(app.url) && !url.startsWith('data:') && !url.startsWith('blob:')) seen.offsite.push(url);
  });
  page.on('dialog', (d) => {
    seen.dialogs.push(d.message());
    void d.dismiss();
  });
  return seen;
}

describe('source viewer', () => {
  it('shows a PDF page with the supporting sentence on its text layer, pages back and forth, by keyboard, at 390 px', async () => {
    const { page, errors } = await app.open(plain);
    const seen = watch(page);
    // Pages long enough that each holds a passage or more of its own.
    const filler = (n: number) =>
      Array.from(
        { length: 12 },
        (_, i) => `Note ${n}.${i}: the harbour keeps its ledgers, charts and rope lockers in good order.`,
      );
    const pages = [
      [
        'Harbour manual, part one.',
        'The tide tables are printed at the back of the book.',
        ...filler(1),
        'Moorings are checked every spring by the harbour master.',
      ],
      [
        'Harbour manual, part two.',
        ...filler(2).slice(0, 6),
        'The quartermaster counted nineteen brass lanterns in the cellar.',
        ...filler(2).slice(6),
        'Each lantern burns paraffin and is trimmed at dusk.',
      ],
      ['Harbour manual, part three.', ...filler(3), 'Fog signals sound every thirty seconds in poor weather.'],
    ];
    await addFiles(page, [{ name: 'harbour-manual.pdf', bytes: tinyPdf(pages) }]);
    expect(await page.getByTestId('doc').filter({ hasText: 'harbour-manual' }).innerText()).toMatch(/original kept/);
    await evidenceOnly(page);
    const { dialog, label } = await openEvidence(
      page,
      'How many brass lanterns did the quartermaster count in the cellar?',
      'harbour-manual',
      'brass lanterns',
    );
    // The passage may run over a page break; the viewer opens where its supporting sentence stands.
    expect(label).toMatch(/harbour-manual, (p\. 2|pp\. [12]–[23])$/);
    expect(await dialog.getByTestId('passage-place').innerText()).toMatch(/^(p\. 2|pp\. [12]–[23])$/);
    const frame = dialog.getByTestId('pdf-frame');
    await dialog.locator('[data-testid=pdf-frame][data-marked]').waitFor({ timeout: 60_000 });
    expect(await frame.getAttribute('data-page')).toBe('2');
    expect(Number(await frame.getAttribute('data-marked'))).toBeGreaterThan(0);
    const marked = (await dialog.locator('.textLayer .highlight').allTextContents()).join('');
    expect(marked).toContain('nineteen brass lanterns');
    expect(marked).not.toContain('tide tables');
    expect(await dialog.getByTestId('page-label').innerText()).toBe('Page 2 of 3');
    await shot(page, 'pdf-desktop');

    // Keyboard: the modal dialog holds focus; Tab reaches "Next page", Enter turns the page.
    const next = dialog.getByTestId('page-next');
    for (let i = 0; i < 12 && !(await next.evaluate((b) => b === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    expect(await next.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.getByTestId('page-label').innerText()).toBe('Page 3 of 3');
    await expect.poll(() => frame.getAttribute('data-page')).toBe('3');
    expect(await dialog.getByTestId('page-next').isDisabled()).toBe(true);
    await dialog.getByTestId('page-prev').click();
    await expect.poll(() => dialog.locator('[data-testid=pdf-frame][data-page="2"][data-marked]').count()).toBe(1);

    // A phone: the dialog and the page fit the screen's width.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => dialog.evaluate((d) => d.getBoundingClientRect().right <= 390)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The page is drawn again to the phone's width, the sentence marked again.
    await expect
      .poll(() => dialog.locator('canvas').evaluate((c) => c.getBoundingClientRect().right <= 390))
      .toBe(true);
    await dialog.locator('[data-testid=pdf-frame][data-marked]').waitFor();
    expect((await dialog.locator('.textLayer .highlight').allTextContents()).join('')).toContain(
      'nineteen brass lanterns',
    );
    await shot(page, 'pdf-phone');

    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(seen.offsite).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('hostile HTML and a hostile PDF are shown as text and a page, and nothing in them runs or loads', async () => {
    const { page, errors } = await app.open(plain);
    const seen = watch(page);
    const html = `<!doctype html><html><head><title>Ladder safety</title><link rel="stylesheet" href="${EVIL}/style.css">
      <script>alert('script ran'); fetch('${EVIL}/beacon')</script><meta http-equiv="refresh" content="0; url=${EVIL}/moved"></head>
      <body onload="alert('onload ran')"><h1>Ladder safety</h1><img src="${EVIL}/pixel.png" onerror="alert('onerror ran')">
      <h2>Climbing down</h2><p>Always face the ladder when climbing down its rungs, holding on with both hands.</p>
      <iframe src="${EVIL}/frame"></iframe><p onclick="alert('click ran')">The text &lt;img src=x onerror=alert(4)&gt; stays text.</p>
      <h2>Storage</h2><p>Keep the ladder in a dry shed away from frost.</p></body></html>`;
    await addFiles(page, [
      { name: 'ladders.html', bytes: Buffer.from(html) },
      {
        name: 'tender-notes.pdf',
        bytes: hostilePdf(
          ['The lighthouse tender polishes the great lens every Sunday.', 'Visitors may climb the tower in summer.'],
          EVIL,
        ),
      },
    ]);
    await evidenceOnly(page);

    const html1 = await openEvidence(
      page,
      'Which way should you face when climbing down the ladder?',
      'Ladder safety',
      'face the ladder',
    );
    expect(html1.label).toBe('¶ Ladder safety › Climbing down');
    const text = html1.dialog.getByTestId('source-text');
    await text.waitFor();
    expect(await text.locator('mark').innerText()).toMatch(/^Always face the ladder when climbing down/);
    expect(await text.innerText()).toContain('<img src=x onerror=alert(4)>');
    expect(await html1.dialog.locator('.source-section :is(img, iframe, script, link, a)').count()).toBe(0);
    await shot(page, 'html-desktop');
    await page.keyboard.press('Escape');

    const pdf = await openEvidence(
      page,
      'What does the lighthouse tender polish every Sunday?',
      'tender-notes',
      'great lens',
    );
    await pdf.dialog.locator('[data-testid=pdf-frame][data-marked]').waitFor({ timeout: 60_000 });
    expect((await pdf.dialog.locator('.textLayer .highlight').allTextContents()).join('')).toContain(
      'polishes the great lens',
    );
    // No annotation layer: the link and the launch action are not drawn, so there is nothing to click.
    expect(await pdf.dialog.locator('.source-section :is(a, section, iframe)').count()).toBe(0);
    await page.mouse.click(
      ...(await pdf.dialog.locator('canvas').evaluate((c) => {
        const r = c.getBoundingClientRect();
        return [r.left + r.width * 0.3, r.top + r.height * 0.1] as [number, number];
      })),
    );
    await page.keyboard.press('Escape');
    // Give anything that was scheduled by either document a chance to fire before the verdict.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    expect(seen.dialogs).toEqual([]);
    expect(seen.offsite).toEqual([]);
    expect(page.url().startsWith(app.url)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('shows a scanned page or photo as its image with the recognised lines of the sentence boxed', async () => {
    const scanner = await plain.newContext();
    app.track(scanner);
    const sp = await scanner.newPage();
    await sp.goto(`${app.url}test/browser/pages/scan.html`);
    await sp.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    const lines = [
      'Dear Margaret, the swallows returned to the barn on Tuesday morning.',
      'Father says the hay will be ready to cut within a fortnight.',
    ];
    const scan = (await sp.evaluate(
      ([l]) => (window as unknown as { scanTest: ScanPageApi }).scanTest.scan(l, 200, 0.5),
      [lines] as const,
    )) as { png: string };
    const pdfLines = [
      'The lighthouse keeper recorded seventeen storms in the winter of 1893.',
      'Every storm was entered in a green ledger with the wind direction.',
    ];
    const pdfScan = (await sp.evaluate(
      ([l]) => (window as unknown as { scanTest: ScanPageApi }).scanTest.scan(l, 200, 0.5),
      [pdfLines] as const,
    )) as { width: number; height: number; greyZlib: string };
    const scannedPdf = imagePdf([
      { width: pdfScan.width, height: pdfScan.height, zlib: new Uint8Array(Buffer.from(pdfScan.greyZlib, 'base64')) },
    ]);

    const { page, errors } = await app.open(plain);
    const seen = watch(page);
    await addFiles(page, [
      { name: 'letter.png', bytes: Buffer.from(scan.png, 'base64') },
      { name: 'keeper-scan.pdf', bytes: scannedPdf },
    ]);
    await evidenceOnly(page);
    const { dialog, label } = await openEvidence(page, 'When did the swallows return to the barn?', 'letter');
    expect(label).toMatch(/letter, p\. 1/);
    const view = dialog.getByTestId('source-scan');
    await view.waitFor();
    await expect
      .poll(() => view.locator('img').evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0))
      .toBe(true);
    const boxes = view.getByTestId('line-box');
    expect(await boxes.count()).toBeGreaterThanOrEqual(1);
    // The box lies on the image, in its upper part where the letter's lines were written.
    const [img, box] = await Promise.all([view.locator('img').boundingBox(), boxes.first().boundingBox()]);
    expect(box!.y).toBeGreaterThanOrEqual(img!.y);
    expect(box!.y + box!.height).toBeLessThan(img!.y + img!.height / 2);
    expect(await boxes.first().getAttribute('title')).toMatch(/swallows|barn/);
    await shot(page, 'scan-desktop');
    await page.keyboard.press('Escape');

    // A scanned PDF page: drawn by pdf.js, without a text layer to mark, its recognised lines boxed instead.
    const scanned = await openEvidence(
      page,
      'How many storms did the lighthouse keeper record in the winter?',
      'keeper-scan',
    );
    expect(scanned.label).toMatch(/keeper-scan, p\. 1/);
    await scanned.dialog.locator('[data-testid=pdf-frame][data-marked]').waitFor({ timeout: 60_000 });
    expect(await scanned.dialog.locator('.textLayer span').count()).toBe(0);
    expect(await scanned.dialog.locator('.pdf-page [data-testid=line-box]').count()).toBeGreaterThanOrEqual(1);
    expect(await scanned.dialog.locator('.pdf-page [data-testid=line-box]').first().getAttribute('title')).toMatch(
      /storms|lighthouse|winter/,
    );
    expect(seen.offsite).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('opens a library written by the previous version: its passages say their page is not known', async () => {
    const context = await plain.newContext({ viewport: { width: 1400, height: 1000 } });
    app.track(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${app.url}favicon.svg`);
    // The schema of version 1, as the page before this change wrote it; vectors of another model, so they are made again on opening.
    await page.evaluate(async () => {
      const text =
        'The keeper logged seventeen storms in the winter of 1893.\n\nEvery storm went into a green ledger with the wind direction.';
      const db = await new Promise<IDBDatabase>((ok, fail) => {
        const r = indexedDB.open('selfrag-library', 1);
        r.onupgradeneeded = () => {
          const d = r.result;
          d.createObjectStore('documents', { keyPath: 'id' });
          d.createObjectStore('passages', { keyPath: 'id' }).createIndex('docId', 'docId');
          d.createObjectStore('vectors', { keyPath: 'docId' });
          d.createObjectStore('meta');
        };
        r.onsuccess = () => ok(r.result);
        r.onerror = () => fail(r.error);
      });
      const tx = db.transaction(['documents', 'passages', 'vectors', 'meta'], 'readwrite');
      tx.objectStore('documents').put({
        id: 'doc-old',
        title: 'Keeper log',
        name: 'keeper-log.txt',
        format: 'text',
        text,
        passageCount: 2,
        bytes: text.length,
        addedAt: 1,
        origin: 'user',
      });
      tx.objectStore('passages').put({
        id: 'doc-old#0',
        docId: 'doc-old',
        title: 'Keeper log',
        text: text.slice(0, 57),
        index: 0,
        start: 0,
        end: 57,
      });
      tx.objectStore('passages').put({
        id: 'doc-old#1',
        docId: 'doc-old',
        title: 'Keeper log',
        text: text.slice(59),
        index: 1,
        start: 59,
        end: text.length,
      });
      tx.objectStore('vectors').put({
        docId: 'doc-old',
        dim: 2,
        ids: ['doc-old#0', 'doc-old#1'],
        data: new Float32Array([1, 0, 0, 1]).buffer,
      });
      tx.objectStore('meta').put('an-older-embedding-model', 'embedder');
      tx.objectStore('meta').put(true, 'seeded');
      await new Promise((ok) => (tx.oncomplete = ok));
      db.close();
    });
    await page.goto(app.url + QUERY);
    const doc = page.getByTestId('doc').filter({ hasText: 'Keeper log' });
    await doc.waitFor({ timeout: 120_000 });
    expect(
      await page.evaluate(async () => (await indexedDB.databases()).find((d) => d.name === 'selfrag-library')?.version),
    ).toBe(2);
    // Its vectors are another model's: it opens by its words and is embedded again in the background.
    // Asked once that has settled: in one fresh-clone run under load, a question asked while the
    // document was being put back did not find its passage (issue 47's note; the window is the
    // product's to close, this test is about the place a passage of an old library says).
    await expect.poll(() => doc.innerText(), { timeout: 120_000 }).not.toMatch(/not embedded yet/);
    await evidenceOnly(page);
    const { dialog, label } = await openEvidence(
      page,
      'What colour was the ledger the storms went into?',
      'Keeper log',
      'green ledger',
    );
    expect(label).toBe('¶ Keeper log · passage 2');
    expect(await dialog.getByTestId('passage-place').innerText()).toBe('page not known (added before this version)');
    expect(await dialog.getByTestId('place-unknown').innerText()).toMatch(
      /page not known \(added before this version\)/,
    );
    expect(await dialog.getByTestId('no-original').innerText()).toMatch(/original file was not kept/);
    expect(await dialog.getByTestId('source-text').locator('mark').innerText()).toMatch(/green ledger/);
    expect(errors).toEqual([]);
  });
});

describe('from an answer, on the page and embedded', () => {
  let parent: Served;
  const hostDir = mkdtempSync(join(tmpdir(), 'viewer-embed-'));
  beforeAll(async () => {
    writeEmbedHost(hostDir, 'q1');
    parent = await serveDir(hostDir);
    writeFileSync(join(E2E_DIR, 'embed.json'), JSON.stringify({ allowedOrigins: [new URL(parent.url).origin] }));
  });
  afterAll(async () => {
    rmSync(join(E2E_DIR, 'embed.json'), { force: true });
    await parent?.close();
    rmSync(hostDir, { recursive: true, force: true });
  });

  it("a citation names its chapter and opens the document's text at the passage; the embed's answer carries the place", async () => {
    const { page, errors } = await app.open();
    await page.fill('#question', 'Why does the sea have tides?');
    await page.getByTestId('ask').click();
    await page.waitForSelector('[data-testid=answer]:not([data-status=running])', { timeout: 120_000 });
    const citation = page.getByTestId('segment').first().getByTestId('citation');
    expect(await citation.innerText()).toMatch(/^¶ Why the Sea Has Tides( › .+| · passage \d+)$/);
    await citation.click();
    const dialog = page.getByTestId('passage-dialog');
    const text = dialog.getByTestId('source-text');
    await text.waitFor();
    const mark = await text.locator('mark').innerText();
    expect(await dialog.getByTestId('passage-text').locator('mark').innerText()).toBe(mark);
    // Scrolled to the sentence: the mark is inside the text box's visible part.
    expect(
      await text.locator('.source-text').evaluate((box) => {
        const m = box.querySelector('mark')!.getBoundingClientRect();
        const b = box.getBoundingClientRect();
        return m.top >= b.top && m.bottom <= b.bottom;
      }),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);

    // "Why this segment": each candidate's passage opens the same viewer.
    const segment = page.getByTestId('segment').first();
    await segment.getByRole('button', { name: /Why this segment/ }).click();
    const rowLink = segment.getByTestId('why-open-source').first();
    expect(await rowLink.innerText()).toMatch(/^Why the Sea Has Tides|^How |^The |^Baking |^Ownership /);
    await rowLink.click();
    await dialog.getByTestId('source-text').waitFor();
    expect(await dialog.getByTestId('source-text').locator('mark').count()).toBe(1);
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);

    const context = await app.browser.newContext({ viewport: { width: 1100, height: 800 } });
    app.track(context);
    const host = await context.newPage();
    await host.goto(
      `${parent.url}?app=${encodeURIComponent(`${app.url}${QUERY}&embedOrigin=${encodeURIComponent(new URL(parent.url).origin)}`)}`,
    );
    await host.waitForFunction(
      () =>
        (window as unknown as { replies: { data: { type: string } }[] }).replies.some((r) =>
          ['ready', 'pong'].includes(r.data.type),
        ),
      null,
      { timeout: 60_000 },
    );
    await host.evaluate(() =>
      (window as unknown as { askApp(q: string): void }).askApp('Why does the sea have tides?'),
    );
    const answer = await host.waitForFunction(
      () =>
        (window as unknown as { replies: { data: { type: string } }[] }).replies.find(
          (r) => r.data.type === 'answer' || r.data.type === 'error',
        ),
      null,
      { timeout: 120_000 },
    );
    const reply = (await answer.jsonValue()) as unknown as {
      data: { segments: { citation: { title: string; place?: string; headings?: string[] } | null }[] };
    };
    const cited = reply.data.segments.map((s) => s.citation).filter((c) => c !== null);
    expect(cited.length).toBeGreaterThan(0);
    // Every sample passage stands under its chapter heading; a place is named when it says more than the title.
    expect(cited.some((c) => c.headings?.[0] === 'Why the Sea Has Tides')).toBe(true);
    for (const c of cited) if ((c.headings?.length ?? 0) > 1) expect(typeof c.place).toBe('string');
    const frame = host.frameLocator('iframe');
    await frame.getByTestId('citation').first().click();
    await frame.getByTestId('source-text').waitFor();
    await host.screenshot({ path: join(OUTPUT_DIR, 'viewer-embed.png') });
  });
});
