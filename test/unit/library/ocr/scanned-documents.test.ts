// Scanned PDF pages and images go through the recogniser port: which pages are
// sent, what the document records, and what the batch report says. The port here
// is a test double standing in for the browser's tesseract.js worker.
import { describe, expect, it } from 'vitest';
import type { OcrPort, OcrProgress, RenderablePage } from '../../../../src/library/ocr/port';
import { UndecodableImage } from '../../../../src/library/ocr/port';
import type { Recognition } from '../../../../src/library/ocr/recognition';
import { readAndPrepare } from '../../../../src/library/ingest';
import { isDocumentName, parseDocument, RefusedFile } from '../../../../src/library/parse';
import { loadPdfJsInNode } from '../../../../src/library/parse/pdf-node';
import { png } from '../../../doubles/image-bytes';
import { tinyPdf } from '../../../doubles/tiny-pdf';

const LONG = 'This page has a real text layer, long enough to be kept exactly as it is written.';

/** Answers page n with `byPage(n)`; remembers which pages it was asked for and at what size. */
function fakeOcr(byPage: (n: number) => Recognition, image?: Recognition | Error) {
  const asked: number[] = [];
  const sizes: number[] = [];
  const progress: OcrProgress[] = [];
  let n = 0;
  const port: OcrPort = {
    async recognisePdfPage(page: RenderablePage, scale: number) {
      sizes.push(page.getViewport({ scale }).width);
      const p = progress[progress.length - 1]!.page;
      asked.push(p);
      n++;
      return byPage(p);
    },
    async recogniseImage() {
      if (image instanceof Error) throw image;
      return image ?? { text: '', confidence: 0 };
    },
    onProgress: (p) => progress.push(p),
  };
  return { port, asked, sizes, progress, count: () => n };
}

const file = (name: string, bytes: Uint8Array) => ({ name, bytes });

describe('scanned PDF pages', () => {
  it('recognises only the pages without a text layer and keeps the others as written', async () => {
    const pdf = tinyPdf([[LONG], [], ['Page 3']]);
    const ocr = fakeOcr((n) => ({ text: `Recognised words of scanned page number ${n} here.`, confidence: 91 }));
    const d = await parseDocument(file('mixed.pdf', pdf), { pdf: loadPdfJsInNode, ocr: ocr.port });
    expect(ocr.asked).toEqual([2, 3]);
    expect(d.text).toContain(LONG);
    expect(d.text).toContain('scanned page number 2');
    expect(d.text).toContain('scanned page number 3');
    expect(d.text).not.toMatch(/Page 3\b/);
    expect(d.ocr).toEqual({ pages: [2, 3], meanConfidence: 91, lowConfidencePages: [], emptyPages: [] });
    expect(d.notes).toContain('2 of its 3 pages had no text layer and were recognised (mean confidence 91 %)');
    // Letter pages are rendered at 300 dpi: 8.5 in × 300.
    expect(ocr.sizes[0]).toBeCloseTo(2550, 0);
    expect(ocr.progress.map((p) => [p.done, p.total])).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
  });

  it('keeps a low-confidence page and names it; leaves out a page with nothing recognisable', async () => {
    const pdf = tinyPdf([[], [], []]);
    const ocr = fakeOcr((n) =>
      n === 1
        ? { text: 'A clear page of text, read well by the recogniser.', confidence: 88 }
        : n === 2
          ? { text: 'Faint smudged words read poorly here', confidence: 41 }
          : { text: ' ~ . ', confidence: 12 },
    );
    const d = await parseDocument(file('letters.pdf', pdf), { pdf: loadPdfJsInNode, ocr: ocr.port });
    expect(d.text).toContain('Faint smudged words');
    expect(d.ocr?.lowConfidencePages).toEqual([2]);
    expect(d.ocr?.emptyPages).toEqual([3]);
    expect(d.notes?.join('\n')).toMatch(/page 2 was recognised with low confidence/);
    expect(d.notes?.join('\n')).toMatch(/page 3 had no recognisable text and was left out/);
  });

  it('a page that cannot be rendered costs that page only; a recogniser that fails from the start refuses the file', async () => {
    const flaky = fakeOcr((n) => {
      if (n === 2) throw new Error('render failed');
      return { text: `Recognised words of scanned page number ${n} here.`, confidence: 90 };
    });
    const d = await parseDocument(file('flaky.pdf', tinyPdf([[], [], []])), { pdf: loadPdfJsInNode, ocr: flaky.port });
    expect(d.text).toContain('page number 3');
    expect(d.notes).toContain('page 2 could not be read and was skipped');
    const dead = fakeOcr(() => {
      throw new Error('the text recogniser could not start (network error)');
    });
    const r = await readAndPrepare(file('dead.pdf', tinyPdf([[], []])), { pdf: loadPdfJsInNode, ocr: dead.port });
    expect(r).toEqual({
      ok: false,
      reason: 'it could not be read (the text recogniser could not start (network error))',
    });
    expect(dead.asked).toEqual([1]);
  });

  it('refuses a scanned PDF where nothing at all is recognised, with the reason', async () => {
    const ocr = fakeOcr(() => ({ text: '', confidence: 0 }));
    await expect(
      parseDocument(file('blank.pdf', tinyPdf([[], []])), { pdf: loadPdfJsInNode, ocr: ocr.port }),
    ).rejects.toThrow(/no text was recognised on its 2 pages/);
  });

  it('refuses a PDF of thousands of scanned pages before rendering any', async () => {
    const ocr = fakeOcr(() => ({ text: 'never', confidence: 99 }));
    const pdf = tinyPdf(Array.from({ length: 501 }, () => []));
    await expect(parseDocument(file('archive.pdf', pdf), { pdf: loadPdfJsInNode, ocr: ocr.port })).rejects.toThrow(
      /501 scanned pages.*at most 500/,
    );
    expect(ocr.count()).toBe(0);
  });

  it('without a recogniser (the Node indexer) a scanned PDF is refused as before', async () => {
    await expect(parseDocument(file('scan.pdf', tinyPdf([[]])), { pdf: loadPdfJsInNode })).rejects.toThrow(
      /no extractable text/,
    );
  });
});

describe('images', () => {
  const text = { text: 'Dear Sir, the invoice for March is enclosed with this letter.', confidence: 83 };

  it('reads a PNG, JPEG or WebP page as one recognised page', async () => {
    const ocr = fakeOcr(() => text, text);
    const d = await parseDocument(file('letter.png', png(1700, 2200)), { ocr: ocr.port });
    expect(d.format).toBe('image');
    expect(d.title).toBe('letter');
    expect(d.text).toBe(text.text);
    expect(d.ocr).toMatchObject({ pages: [1], meanConfidence: 83 });
    expect(d.notes).toEqual(['its text was recognised from the image (mean confidence 83 %)']);
  });

  it('knows an image by its bytes even without an extension', async () => {
    const ocr = fakeOcr(() => text, text);
    expect((await parseDocument(file('scan-0001', png(100, 100)), { ocr: ocr.port })).format).toBe('image');
  });

  it('keeps out an image with no text, and a damaged one, each with its reason', async () => {
    const blank = fakeOcr(() => text, { text: '|', confidence: 5 });
    await expect(parseDocument(file('holiday.jpg', png(800, 600)), { ocr: blank.port })).rejects.toThrow(
      /no text was recognised in the image/,
    );
    const broken = fakeOcr(() => text, new UndecodableImage(new Error('The source image could not be decoded.')));
    await expect(parseDocument(file('torn.png', png(800, 600)), { ocr: broken.port })).rejects.toThrow(
      /damaged and could not be decoded/,
    );
  });

  it('refuses a decompression bomb and a HEIC photo without asking the recogniser', async () => {
    const ocr = fakeOcr(() => text, new Error('must not be called'));
    await expect(parseDocument(file('bomb.png', png(30000, 30000)), { ocr: ocr.port })).rejects.toThrow(RefusedFile);
    const heic = new Uint8Array([0, 0, 0, 24, ...new TextEncoder().encode('ftypheic'), 0, 0, 0, 0]);
    await expect(parseDocument(file('IMG_1.heic', heic), { ocr: ocr.port })).rejects.toThrow(/HEIC/);
  });

  it('a folder walk takes photos and scans of pages, and TIFF/HEIC so they are refused with a reason', () => {
    expect(['IMG_0001.JPG', 'scan.png', 'page.webp', 'fax.tif', 'IMG_2.HEIC'].every(isDocumentName)).toBe(true);
    expect(['cover.gif', 'icon.svg', 'logo.bmp'].some(isDocumentName)).toBe(false);
  });

  it('an image renamed .md stays a binary file to refuse', async () => {
    await expect(parseDocument(file('photo.md', png(10, 10)))).rejects.toThrow(/binary/);
  });

  it('a text file that happens to start like a bitmap stays text', async () => {
    const d = await parseDocument(file('cars.txt', new TextEncoder().encode('BMW and GIF89a are words here.')));
    expect(d.format).toBe('text');
  });
});
