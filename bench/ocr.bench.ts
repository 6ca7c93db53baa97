// OCR of scanned pages as a user meets it, in headless Chromium on the e2e build
// (tesseract.js 7, WASM, in the app's OCR worker behind the library worker; not
// tesseract.js's Node path). Pages of real prose (the shipped sample documents) are
// laid out as a text PDF, "scanned" at 200 dpi by the scan test page (pdf.js renders
// them, as a scanner would image paper) and wrapped as an image-only PDF. The
// library then recognises them at its chosen resolution (src/library/ocr/limits.ts,
// OCR_DPI). Reported: seconds per page and characters per second, and the share
// of the page's three-word phrases recovered; the reference, in the same run, is
// the same pages' text PDF read through its text layer. Then memory: the peak RSS of
// every browser process while a short and a long scan (the same small page repeated)
// are recognised, which stays flat if pages are held one at a time.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { OCR_DPI } from '../src/library/ocr/limits';
import { launchBrowser, serveDir } from '../test/browser/harness';
import { imagePdf } from '../test/doubles/image-pdf';
import { tinyPdf } from '../test/doubles/tiny-pdf';
import type { LibraryPageApi } from '../test/browser/pages/library-page';
import type { ScanPageApi } from '../test/browser/pages/scan-page';

const ROOT = join(import.meta.dirname, '..');
/** Page counts of the short and the long scan for the memory measure. */
const MEMORY_PAGES = (process.env.BENCH_OCR_MEMORY_PAGES ?? '5,40').split(',').map(Number);

/** RSS in MB of every process descending from this one (the browser this bench launched). */
function browserRss(): number {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,rss='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number, number]);
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of rows)
      if (mine.has(ppid) && !mine.has(pid)) {
        mine.add(pid);
        grew = true;
      }
  }
  mine.delete(process.pid);
  return rows.filter(([pid]) => mine.has(pid)).reduce((n, r) => n + r[2], 0) / 1024;
}
const PAGES = Number(process.env.BENCH_OCR_PAGES ?? 3);
const SCAN_DPI = 200;
/** Characters per line and lines per page for 12 pt Helvetica on a letter page (test/doubles/tiny-pdf.ts). */
const LINE_CHARS = 80;
const PAGE_LINES = 46;

/** Pages of real prose from the sample documents, wrapped to lines. */
function prosePages(count: number): string[][] {
  const text = ['honeybees', 'tides', 'printing-press', 'sourdough-bread']
    .map((f) => readFileSync(join(ROOT, 'public/sample', `${f}.md`), 'utf8'))
    .join('\n')
    .replace(/^#.*$/gm, '')
    .replace(/[*_`>#[\]()]/g, '')
    .replace(/\s+/g, ' ');
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if ((line + ' ' + word).trim().length > LINE_CHARS) {
      lines.push(line.trim());
      line = '';
    }
    line += ' ' + word;
  }
  return Array.from({ length: count }, (_, p) => lines.slice(p * PAGE_LINES, (p + 1) * PAGE_LINES));
}

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
function trigrams(s: string): Set<string> {
  const w = words(s);
  return new Set(w.slice(2).map((_, i) => `${w[i]} ${w[i + 1]} ${w[i + 2]}`));
}
/** Share of the known text's three-word phrases found in the extracted text. */
function phraseRecovery(known: string, got: string): number {
  const want = trigrams(known);
  const have = trigrams(got);
  let hit = 0;
  for (const t of want) if (have.has(t)) hit++;
  return hit / want.size;
}

function caller<A>(page: Page, global: string) {
  return <K extends keyof A & string>(m: K, ...a: unknown[]) =>
    page.evaluate(
      ([g, mm, aa]) =>
        (window as unknown as Record<string, Record<string, (...x: unknown[]) => unknown>>)[g]![mm]!(...aa),
      [global, m, a] as [string, string, unknown[]],
    ) as Promise<A[K] extends (...x: never[]) => Promise<infer R> ? R : never>;
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ocr-bench-'));
  const out = process.env.BENCH_OCR_DIST ?? join(dir, 'e2e');
  try {
    if (!process.env.BENCH_OCR_DIST) {
      execFileSync(
        process.execPath,
        [
          join(ROOT, 'node_modules/vite/bin/vite.js'),
          'build',
          '--mode',
          'e2e',
          '--outDir',
          out,
          '--emptyOutDir',
          '--logLevel',
          'warn',
        ],
        {
          cwd: ROOT,
          stdio: 'inherit',
          env: { ...process.env, NODE_ENV: 'production' },
        },
      );
    }
    const served = await serveDir(out);
    const browser = await launchBrowser({ webgpu: false });
    try {
      const pages = prosePages(PAGES);
      const known = pages.map((l) => l.join('\n')).join('\n');
      const scanner = await browser.newPage();
      await scanner.goto(`${served.url}test/browser/pages/scan.html`);
      await scanner.waitForSelector('#status:text("ready")');
      const scan = caller<ScanPageApi>(scanner, 'scanTest');
      const images = [];
      const photos: string[] = [];
      for (const lines of pages) {
        const s = await scan('scan', lines, SCAN_DPI);
        images.push({ width: s.width, height: s.height, zlib: new Uint8Array(Buffer.from(s.greyZlib, 'base64')) });
        // A phone-like copy: 150 dpi, JPEG at quality 0.4 (blocky edges around the letters).
        photos.push((await scan('scan', lines, 150, 0.4)).jpeg);
      }
      const warm = await scan('scan', ['A short page that starts the recogniser before the timed pages.'], SCAN_DPI);
      const small = await scan(
        'scan',
        [
          'The keeper wrote down every ship that passed the headland that year.',
          'Some were steamers; most were sailing barges carrying coal and grain.',
        ],
        SCAN_DPI,
      );
      await scanner.close();

      const page = await browser.newPage();
      page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
      await page.goto(`${served.url}test/browser/pages/library.html`);
      await page.waitForSelector('#status:text("ready")');
      const lib = caller<LibraryPageApi>(page, 'libraryTest');
      await lib('open', { dbName: 'ocr-bench' });
      const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
      // The recogniser's start (its worker, core and model) is paid once, outside the timing.
      await lib('addBytes', [{ name: 'warm.png', base64: warm.png }]);

      const time = async (name: string, bytes: Uint8Array) => {
        const t0 = performance.now();
        const r = await lib('addBytes', [{ name, base64: b64(bytes) }]);
        const seconds = (performance.now() - t0) / 1000;
        const doc = r.added[0];
        if (!doc) throw new Error(`${name} was refused: ${r.refused[0]?.reason}`);
        const text = (await lib('passages', doc.id)).join('\n');
        return { seconds, text };
      };
      const reference = await time('text-layer.pdf', tinyPdf(pages));
      const scanned = await time('scanned.pdf', imagePdf(images));
      const photo = { seconds: 0, text: '' };
      for (const [i, jpeg] of photos.entries()) {
        const r = await time(`photo-${i}.jpg`, new Uint8Array(Buffer.from(jpeg, 'base64')));
        photo.seconds += r.seconds;
        photo.text += r.text + '\n';
      }
      const chars = words(scanned.text).join(' ').length;
      console.log(
        `\n${PAGES} pages of prose (${known.length} characters), scanned at ${SCAN_DPI} dpi, recognised at ${OCR_DPI} dpi; headless Chromium, tesseract.js WASM in the OCR worker\n`,
      );
      console.log('| path | s per page | characters/s | three-word phrases recovered |');
      console.log('| --- | --- | --- | --- |');
      console.log(
        `| text layer (reference) | ${(reference.seconds / PAGES).toFixed(2)} | ${Math.round(words(reference.text).join(' ').length / reference.seconds)} | ${(phraseRecovery(known, reference.text) * 100).toFixed(1)} % |`,
      );
      console.log(
        `| OCR of the scan (image-only PDF, ${SCAN_DPI} dpi) | ${(scanned.seconds / PAGES).toFixed(2)} | ${Math.round(chars / scanned.seconds)} | ${(phraseRecovery(known, scanned.text) * 100).toFixed(1)} % |`,
      );
      console.log(
        `| OCR of a low-quality JPEG (150 dpi, quality 0.4) | ${(photo.seconds / PAGES).toFixed(2)} | ${Math.round(words(photo.text).join(' ').length / photo.seconds)} | ${(phraseRecovery(known, photo.text) * 100).toFixed(1)} % |`,
      );
      console.log(
        `\nMemory: one small page (two lines) repeated, scanned at ${SCAN_DPI} dpi, each scan in a fresh library page\n`,
      );
      console.log('| scanned pages | s per page | browser RSS before (MB) | peak (MB) | peak above before (MB) |');
      console.log('| --- | --- | --- | --- | --- |');
      const smallImage = {
        width: small.width,
        height: small.height,
        zlib: new Uint8Array(Buffer.from(small.greyZlib, 'base64')),
      };
      for (const count of MEMORY_PAGES) {
        const tab = await browser.newPage();
        await tab.goto(`${served.url}test/browser/pages/library.html`);
        await tab.waitForSelector('#status:text("ready")');
        const call = caller<LibraryPageApi>(tab, 'libraryTest');
        await call('open', { dbName: `ocr-memory-${count}` });
        const pdf = b64(imagePdf([smallImage], new Array<number>(count).fill(0)));
        const before = browserRss();
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, browserRss())), 500);
        const t0 = performance.now();
        const r = await call('addBytes', [{ name: `scan-${count}.pdf`, base64: pdf }]);
        clearInterval(sampler);
        if (!r.added.length) throw new Error(`the ${count}-page scan was refused: ${r.refused[0]?.reason}`);
        console.log(
          `| ${count} | ${((performance.now() - t0) / 1000 / count).toFixed(2)} | ${before.toFixed(0)} | ${peak.toFixed(0)} | ${(peak - before).toFixed(0)} |`,
        );
        await tab.close();
      }
      console.log(
        `\nOCR recovers ${((phraseRecovery(known, scanned.text) / phraseRecovery(known, reference.text)) * 100).toFixed(1)} % of what the text layer gives, at ${(scanned.seconds / reference.seconds).toFixed(0)}x its time (both include chunking, embedding with the test embedder and saving).`,
      );
    } finally {
      await browser.close();
      await served.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
