// E2E-only page (built with --mode e2e): the "scanner" of the OCR tests. It writes
// a text PDF with known lines (test/doubles/tiny-pdf.ts), renders it with pdf.js
// at a scanner's resolution and hands back what a scanner or a phone would save:
// grey pixels (for an image-only PDF), a PNG and a JPEG. Test-only: it renders on
// its own main thread, in its own tab, before any measurement starts.
import * as pdfjs from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { tinyPdf } from '../../doubles/tiny-pdf';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

const base64 = (bytes: Uint8Array) => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
};

async function zlib(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const api = {
  /** Renders page 1 of a text PDF holding `lines` at `dpi`; returns base64 grey zlib pixels, PNG and JPEG (quality `jpegQuality`). */
  async scan(lines: string[], dpi: number, jpegQuality = 0.5) {
    const doc = await pdfjs.getDocument({ data: tinyPdf([lines]), isEvalSupported: false }).promise;
    const page = await doc.getPage(1);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(viewport.width);
    canvas.height = Math.ceil(viewport.height);
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvasContext: ctx, canvas, viewport }).promise;
    await doc.destroy();
    const rgba = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    const grey = new Uint8Array(canvas.width * canvas.height);
    for (let i = 0; i < grey.length; i++) grey[i] = rgba[i * 4]!;
    const blob = (type: string, q?: number) => new Promise<Blob>((ok) => canvas.toBlob((b) => ok(b!), type, q));
    const bytes = async (b: Blob) => new Uint8Array(await b.arrayBuffer());
    return {
      width: canvas.width,
      height: canvas.height,
      greyZlib: base64(await zlib(grey)),
      png: base64(await bytes(await blob('image/png'))),
      jpeg: base64(await bytes(await blob('image/jpeg', jpegQuality))),
    };
  },
  /** A white image with no writing on it, and one of noise (a "photo" without text). */
  async blank(width: number, height: number) {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d')!;
    const g = ctx.createLinearGradient(0, 0, width, height);
    g.addColorStop(0, '#8ab4f8');
    g.addColorStop(1, '#1e3a5f');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, width, height);
    const b = await new Promise<Blob>((ok) => canvas.toBlob((x) => ok(x!), 'image/png'));
    return base64(new Uint8Array(await b.arrayBuffer()));
  },
};

export type ScanPageApi = typeof api;
(window as unknown as { scanTest: ScanPageApi }).scanTest = api;
document.getElementById('status')!.textContent = 'ready';
