// pdfjs in Node (indexer CLI, tests): the legacy build runs its worker in-process.
import type { PdfJs } from './pdf';

export async function loadPdfJsInNode(): Promise<PdfJs> {
  return (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as PdfJs;
}
