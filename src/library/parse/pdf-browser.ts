// pdfjs in the browser: loaded only when a PDF arrives (it is large), with its
// worker bundled by Vite and served from our own origin.
import type { PdfJs } from './pdf';

export async function loadPdfJsInBrowser(): Promise<PdfJs> {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  return pdfjs as unknown as PdfJs;
}
