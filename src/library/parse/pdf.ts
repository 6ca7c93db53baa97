// PDF text through pdfjs-dist. How pdfjs is loaded differs by environment
// (bundled worker URL in the browser, legacy build in Node), so the loader is
// passed in; the extraction is the same everywhere.
import { RefusedFile } from './refusal';

/** The slice of pdfjs-dist's API this file uses. */
export interface PdfJs {
  getDocument(src: { data: Uint8Array; verbosity?: number; isEvalSupported?: boolean }): {
    promise: Promise<{
      numPages: number;
      getPage(n: number): Promise<{ getTextContent(): Promise<{ items: unknown[] }> }>;
      getMetadata?(): Promise<{ info?: unknown }>;
      destroy(): Promise<void>;
    }>;
  };
}
export type PdfLoader = () => Promise<PdfJs>;

export function isPdf(bytes: Uint8Array): boolean {
  return bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46; // %PDF
}

export async function parsePdf(name: string, bytes: Uint8Array, load: PdfLoader): Promise<{ text: string; title?: string; notes: string[] }> {
  const pdfjs = await load();
  let doc;
  try {
    // pdfjs transfers the buffer to its worker: give it a copy so the caller's bytes survive.
    // isEvalSupported: false keeps pdfjs from compiling font code with `new Function`.
    doc = await pdfjs.getDocument({ data: bytes.slice(), verbosity: 0, isEvalSupported: false }).promise;
  } catch (e) {
    throw new RefusedFile(name, `the PDF could not be read (${e instanceof Error ? e.message : String(e)})`);
  }
  try {
    const pages: string[] = [];
    const broken: number[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      let items: unknown[];
      try {
        ({ items } = await (await doc.getPage(n)).getTextContent());
      } catch {
        // One damaged page should not cost the reader the rest of the manual.
        broken.push(n);
        continue;
      }
      let page = '';
      for (const item of items) {
        if (!item || typeof item !== 'object' || !('str' in item)) continue;
        const { str, hasEOL } = item as { str: string; hasEOL?: boolean };
        page += str + (hasEOL ? '\n' : '');
      }
      pages.push(page.replace(/[ \t]+/g, ' ').trim());
    }
    let title: string | undefined;
    const info = (await doc.getMetadata?.().catch(() => undefined))?.info;
    if (info && typeof info === 'object' && 'Title' in info && typeof info.Title === 'string' && info.Title.trim()) title = info.Title.trim();
    const text = pages.filter(Boolean).join('\n\n');
    if (!text && broken.length) throw new RefusedFile(name, `none of its ${doc.numPages} pages could be read; open it in a PDF viewer and print it to a new PDF`);
    if (!text) throw new RefusedFile(name, 'the PDF has no extractable text (it may be scanned images; run it through OCR first)');
    const notes = broken.length ? [`${broken.length === 1 ? 'page' : 'pages'} ${broken.join(', ')} could not be read and ${broken.length === 1 ? 'was' : 'were'} skipped`] : [];
    return title ? { text, title, notes } : { text, notes };
  } finally {
    await doc.destroy();
  }
}
