// Adapts tesseract.js: one recogniser, created on the first page and reused for
// every page after it. tesseract.js runs its engine in a worker of its own (a
// classic worker, as its core is loaded with importScripts); every file it loads
// comes from this site (src/library/ocr/assets.ts), never a CDN. Pages arrive as
// ImageBitmaps (transferred, so never copied) and are closed as soon as read.
import * as Comlink from 'comlink';
import { createWorker, OEM, PSM, type ImageLike, type Worker as Tesseract } from 'tesseract.js';
import { OCR_ASSET_DIR, OCR_FILES } from '../src/library/ocr/assets';
import type { Recognition } from '../src/library/ocr/recognition';
import type { OcrLine } from '../src/core/source-location';
import type { OcrWorkerApi } from '../src/library/protocol/ocr-worker';
import { errorMessage } from '../src/core/errors';

let engine: Promise<Tesseract> | null = null;

function start(): Promise<Tesseract> {
  // Workers are built into the site's assets/ folder (and served from workers/ by the dev server): the site is one up.
  const dir = new URL(`../${OCR_ASSET_DIR}`, self.location.href).href;
  return createWorker('eng', OEM.LSTM_ONLY, {
    workerPath: dir + OCR_FILES.worker,
    // A folder: tesseract.js picks the core matching the browser's SIMD support.
    corePath: dir + 'core',
    langPath: dir + 'lang',
    gzip: true,
    // A plain same-origin worker (not a blob: one), so the service worker serves it offline.
    workerBlobURL: false,
    // The service worker's cache already keeps the model; a second copy in IndexedDB would double it.
    cacheMethod: 'none',
  }).then(async (worker) => {
    // Whole pages with columns, headings and captions: let Tesseract find the blocks.
    await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO });
    return worker;
  });
}

/**
 * Grey PGM (P5): what Leptonica reads without a decoder, one byte a pixel (a
 * quarter of RGBA), and far cheaper to write than a PNG.
 */
function toPgm(bitmap: ImageBitmap): Uint8Array {
  const { width, height } = bitmap;
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  // A transparent pixel reads as white paper, not black.
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const rgba = ctx.getImageData(0, 0, width, height).data;
  canvas.width = canvas.height = 0;
  const header = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);
  const out = new Uint8Array(header.length + width * height);
  out.set(header);
  for (let i = 0, o = header.length; i < rgba.length; i += 4, o++)
    out[o] = (rgba[i]! * 77 + rgba[i + 1]! * 150 + rgba[i + 2]! * 29) >> 8;
  return out;
}

const api: OcrWorkerApi = {
  async recognise(bitmap: ImageBitmap, dpi?: number): Promise<Recognition> {
    const { width, height } = bitmap;
    let image: Uint8Array;
    try {
      image = toPgm(bitmap);
    } finally {
      bitmap.close();
    }
    engine ??= start();
    const worker = await engine.catch((e: unknown) => {
      engine = null;
      throw new Error(`the text recogniser could not start (${errorMessage(e)})`);
    });
    // A PGM carries no resolution; a photo's is unknown, and 300 is what a page photo roughly comes to.
    await worker.setParameters({ user_defined_dpi: String(Math.round(dpi ?? 300)) });
    // Raw bytes are what tesseract.js hands Leptonica anyway; its typings only list Node's Buffer for them.
    // Blocks carry each line's box, for the source viewer to outline the cited lines on the scan.
    const { data } = await worker.recognize(image as unknown as ImageLike, {}, { text: true, blocks: true });
    const lines: OcrLine[] = [];
    for (const block of data.blocks ?? [])
      for (const para of block.paragraphs)
        for (const line of para.lines) {
          const text = line.text.trim();
          const { x0, y0, x1, y1 } = line.bbox;
          if (text) lines.push({ text, box: [x0 / width, y0 / height, x1 / width, y1 / height] });
        }
    return { text: data.text, confidence: data.confidence, lines };
  },
};

Comlink.expose(api);
