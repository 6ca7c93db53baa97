// PDF text through pdfjs-dist. How pdfjs is loaded differs by environment
// (bundled worker URL in the browser, legacy build in Node), so the loader is
// passed in; the extraction is the same everywhere.
import { checkOcrPageCount, pdfRenderScale } from '../ocr/limits';
import { pageNeedsOcr } from '../ocr/page-rule';
import type { OcrPort, RenderablePage } from '../ocr/port';
import {
  cleanRecognisedText,
  hasRecognisedText,
  ocrNotes,
  ocrRecord,
  type OcrRecord,
  type Recognition,
} from '../ocr/recognition';
import { RefusedFile } from './refusal';
import type { DocLayout, HeadingMark, OcrLine, PageStart } from '../../core/source-location';
import { bodyMetrics, headingSizes, layoutPage, pageLines, type PdfLine, runningLines } from './pdf-lines';
import { errorMessage } from '../../core/errors';

/** The slice of pdfjs-dist's API this file uses. */
export interface PdfJs {
  getDocument(src: { data: Uint8Array; verbosity?: number; isEvalSupported?: boolean } & Record<string, unknown>): {
    promise: Promise<{
      numPages: number;
      getPage(n: number): Promise<PdfPage>;
      getMetadata?(): Promise<{ info?: unknown }>;
      getPageLabels?(): Promise<string[] | null>;
      destroy(): Promise<void>;
    }>;
  };
}
export type PdfLoader = () => Promise<PdfJs>;

interface PdfPage extends RenderablePage {
  getTextContent(): Promise<{ items: unknown[]; styles?: Record<string, { fontFamily?: string }> }>;
  cleanup?(): unknown;
}

export function isPdf(bytes: Uint8Array): boolean {
  return bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46; // %PDF
}

export async function parsePdf(
  name: string,
  bytes: Uint8Array,
  load: PdfLoader,
  ocr?: OcrPort,
): Promise<{ text: string; title?: string; notes: string[]; ocr?: OcrRecord; layout: DocLayout }> {
  const pdfjs = await load();
  let doc: Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
  try {
    // pdfjs transfers the buffer to its worker: give it a copy so the caller's bytes survive.
    // isEvalSupported: false keeps pdfjs from compiling font code with `new Function`.
    doc = await pdfjs.getDocument({
      data: bytes.slice(),
      verbosity: 0,
      isEvalSupported: false,
      ...(ocr?.pdfParams ?? {}),
    }).promise;
  } catch (e) {
    throw new RefusedFile(name, `the PDF could not be read (${errorMessage(e)})`);
  }
  try {
    const pages: string[] = [];
    const lines: PdfLine[][] = [];
    const broken: number[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      try {
        const { items, styles } = await (await doc.getPage(n)).getTextContent();
        lines[n - 1] = pageLines(items, styles);
      } catch {
        // One damaged page should not cost the reader the rest of the manual.
        broken.push(n);
        continue;
      }
      pages[n - 1] = lines[n - 1]!.map((l) => l.text).join('\n');
    }
    // Pages whose text layer is missing or too thin are recognised, one at a time, after every
    // text layer is read: the page limit is then known before the first costly render.
    const scanned = ocr ? pages.flatMap((text, i) => (text !== undefined && pageNeedsOcr(text) ? [i + 1] : [])) : [];
    let record: OcrRecord | undefined;
    const ocrLines: Record<number, OcrLine[]> = {};
    if (ocr && scanned.length) {
      checkOcrPageCount(name, scanned.length);
      const results = new Map<number, Recognition>();
      for (const [done, n] of scanned.entries()) {
        ocr.onProgress?.({ done, total: scanned.length, page: n });
        let r: Recognition;
        try {
          const page = await doc.getPage(n);
          const base = page.getViewport({ scale: 1 });
          r = await ocr.recognisePdfPage(page, pdfRenderScale(base.width, base.height));
          page.cleanup?.();
        } catch (e) {
          // Before any page has been recognised the recogniser itself is suspect: the file is refused
          // with its reason. After that, one page that cannot be rendered costs only that page.
          if (results.size === 0) throw e;
          broken.push(n);
          continue;
        }
        results.set(n, r);
        // A recognised page replaces its thin text layer; a page with nothing recognisable keeps what it had.
        if (hasRecognisedText(r)) {
          pages[n - 1] = cleanRecognisedText(r.text);
          ocrLines[n] = r.lines ?? [];
        }
      }
      ocr.onProgress?.({ done: scanned.length, total: scanned.length, page: scanned[scanned.length - 1]! });
      record = ocrRecord(results);
    }
    let title: string | undefined;
    const info = (await doc.getMetadata?.().catch(() => undefined))?.info;
    if (info && typeof info === 'object' && 'Title' in info && typeof info.Title === 'string' && info.Title.trim())
      title = info.Title.trim();
    // A damaged label tree costs only the printed numbers, never the document.
    const labels = (await doc.getPageLabels?.().catch(() => null)) ?? null;
    const { text, starts, headings } = joinPages(pages, lines, ocrLines, labels);
    const layout: DocLayout = {
      pages: starts,
      ...(headings.length ? { headings } : {}),
      ...(Object.keys(ocrLines).length ? { ocrLines } : {}),
    };
    if (!text && record)
      throw new RefusedFile(
        name,
        `no text was recognised on its ${doc.numPages === 1 ? 'page' : `${doc.numPages} pages`} (they may be blank, photographs, or too faint or small to read; a scan at 300 dpi reads best)`,
      );
    if (!text && broken.length)
      throw new RefusedFile(
        name,
        `none of its ${doc.numPages} pages could be read; open it in a PDF viewer and print it to a new PDF`,
      );
    if (!text)
      throw new RefusedFile(
        name,
        'the PDF has no extractable text (it may be scanned images: add it on the web page, which recognises them, or run it through OCR first)',
      );
    broken.sort((a, b) => a - b);
    const notes = broken.length
      ? [
          `${broken.length === 1 ? 'page' : 'pages'} ${broken.join(', ')} could not be read and ${broken.length === 1 ? 'was' : 'were'} skipped`,
        ]
      : [];
    if (record) notes.push(...ocrNotes(record, doc.numPages));
    return { text, notes, layout, ...(title ? { title } : {}), ...(record ? { ocr: record } : {}) };
  } finally {
    await doc.destroy();
  }
}

/**
 * Pages joined by a blank line, each one's start recorded for the passages that fall on it. A
 * page read from its text layer is laid out as paragraphs with its headings (pdf-lines.ts); a
 * recognised page keeps the recogniser's text.
 */
function joinPages(
  pages: string[],
  lines: PdfLine[][],
  ocrLines: Record<number, OcrLine[]>,
  labels: readonly string[] | null,
): { text: string; starts: PageStart[]; headings: HeadingMark[] } {
  const layered = lines.map((l, i) => (ocrLines[i + 1] ? [] : (l ?? [])));
  const metrics = bodyMetrics(layered);
  const sizes = headingSizes(layered, metrics);
  const running = runningLines(layered);
  const starts: PageStart[] = [];
  const headings: HeadingMark[] = [];
  let text = '';
  pages.forEach((raw, i) => {
    const laid = ocrLines[i + 1] || !lines[i] ? null : layoutPage(lines[i]!, metrics, sizes, running);
    const page = laid ? laid.text : raw;
    if (!page) return;
    if (text) text += '\n\n';
    const label = printedLabel(labels?.[i], i + 1);
    starts.push({ page: i + 1, start: text.length, ...(label !== undefined ? { label } : {}) });
    for (const h of laid?.headings ?? []) headings.push({ ...h, start: h.start + text.length });
    text += page;
  });
  return { text, starts, headings };
}

/** A page's printed label, kept only where it says something the file's page number does not. */
function printedLabel(raw: string | undefined, page: number): string | undefined {
  const label = raw?.trim().slice(0, 32);
  return label && label !== String(page) ? label : undefined;
}
