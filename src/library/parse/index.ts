// One entry point from raw bytes to extracted text, or a refusal naming the file and the reason.
import type { DocLayout, HeadingMark } from '../../core/source-location';
import { parseDocx } from './docx';
import { parseEpub } from './epub';
import { parseHtml } from './html';
import { parseImage } from './image';
import { readImageHeader } from '../ocr/image-header';
import type { OcrPort } from '../ocr/port';
import type { OcrRecord } from '../ocr/recognition';
import { parseMarkdown } from './markdown';
import { isPdf, parsePdf, type PdfLoader } from './pdf';
import { RefusedFile } from './refusal';
import { parsePlainText } from './text';
import { checkNotBinary, checkSize, decodeText, isZip, MAX_FILE_BYTES } from './validate';

export { RefusedFile } from './refusal';
export { DOCUMENT_EXTENSIONS, isDocumentName } from './formats';
export { checkDeclaredSize, MAX_FILE_BYTES } from './validate';
export type { PdfLoader } from './pdf';
export type { OcrPort } from '../ocr/port';
export type { OcrRecord } from '../ocr/recognition';

export type DocFormat = 'text' | 'markdown' | 'html' | 'pdf' | 'docx' | 'epub' | 'image';

export interface RawFile {
  name: string;
  /** MIME type if known (from a File or a fetch). */
  type?: string;
  bytes: Uint8Array;
}

export interface ParsedDocument {
  name: string;
  title: string;
  format: DocFormat;
  text: string;
  /** What was read but not kept, or read in an unusual way (a page skipped, an encoding guessed), for the batch report. */
  notes?: string[];
  /** Pages whose text was recognised from their image (scans, photos), with the recogniser's confidence. */
  ocr?: OcrRecord;
  /** Where pages and headings stand in `text`, and the lines read on scanned pages; absent when the document has none. */
  layout?: DocLayout;
}

export interface ParseOptions {
  maxBytes?: number;
  /** Without it PDFs are refused with a message saying so. */
  pdf?: PdfLoader;
  /** Recognises scanned PDF pages and images; without it images are refused and scanned pages stay empty. */
  ocr?: OcrPort;
}

export function detectFormat(name: string, type = '', bytes?: Uint8Array): DocFormat {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  if (ext === 'pdf' || type === 'application/pdf' || (bytes && isPdf(bytes))) return 'pdf';
  if (ext === 'docx' || type === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')
    return 'docx';
  if (ext === 'epub' || type === 'application/epub+zip') return 'epub';
  // Known by its bytes only when the name does not say text: an image renamed .md stays a binary file to refuse.
  if (
    IMAGE.test(name) ||
    (type.startsWith('image/') && type !== 'image/svg+xml') ||
    (!TEXT_EXTENSIONS.has(ext) && bytes && STRONG_MAGIC.has(readImageHeader(bytes)?.format ?? ''))
  )
    return 'image';
  if (['html', 'htm', 'xhtml'].includes(ext) || type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (['md', 'markdown', 'mdown', 'mkd'].includes(ext) || type === 'text/markdown') return 'markdown';
  return 'text';
}

/** Images are pages to recognise; the ones browsers cannot decode are refused by limits.ts with a reason. */
const IMAGE = /\.(png|jpe?g|webp|tiff?|heic|heif|avif|gif|bmp)$/i;

const TEXT_EXTENSIONS = new Set(['txt', 'text', 'md', 'markdown', 'mdown', 'mkd', 'html', 'htm', 'xhtml']);

/** Signatures no text file starts with (a text may well start "BM" or "GIF89a"). */
const STRONG_MAGIC = new Set(['png', 'jpeg', 'webp']);

const UNSUPPORTED =
  /\.(doc|xlsx?|pptx?|odt|ods|odp|rtf|zip|gz|tar|7z|rar|ico|mp3|mp4|wav|ogg|webm|exe|dll|so|wasm|bin)$/i;

function baseName(name: string): string {
  return name.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '') || name;
}

export async function parseDocument(file: RawFile, opts: ParseOptions = {}): Promise<ParsedDocument> {
  const { name, bytes } = file;
  checkSize(name, bytes, opts.maxBytes ?? MAX_FILE_BYTES);
  const format = detectFormat(name, file.type, bytes);
  let parsed: {
    text: string;
    title?: string;
    notes?: string[];
    ocr?: OcrRecord;
    headings?: HeadingMark[];
    layout?: DocLayout;
  };
  if (format === 'pdf') {
    if (!opts.pdf) throw new RefusedFile(name, 'PDF files are not supported here');
    if (!isPdf(bytes)) throw new RefusedFile(name, 'the file is named .pdf but is not a PDF');
    parsed = await parsePdf(name, bytes, opts.pdf, opts.ocr);
  } else if (format === 'image') {
    parsed = await parseImage(name, bytes, opts.ocr);
  } else if (format === 'docx' || format === 'epub') {
    if (!isZip(bytes))
      throw new RefusedFile(
        name,
        `the file is named .${format} but is not ${format === 'docx' ? 'a Word document' : 'an EPUB book'} (it is not a zip archive)`,
      );
    parsed = format === 'docx' ? await parseDocx(name, bytes) : parseEpub(name, bytes);
  } else {
    const ext = UNSUPPORTED.exec(name)?.[1];
    if (ext)
      throw new RefusedFile(
        name,
        `.${ext} files are not supported (use text, Markdown, HTML, PDF, Word .docx or EPUB)`,
      );
    if (isZip(bytes))
      throw new RefusedFile(name, 'the file is a zip archive, not text; unzip it and add the documents inside');
    checkNotBinary(name, bytes);
    const decoded = decodeText(name, bytes);
    const source = decoded.text.replace(/^\ufeff/, '');
    parsed =
      format === 'html' ? parseHtml(source) : format === 'markdown' ? parseMarkdown(source) : parsePlainText(source);
    if (decoded.note) parsed.notes = [decoded.note];
  }
  if (!parsed.text.trim())
    throw new RefusedFile(
      name,
      format === 'html' || format === 'markdown' || format === 'text'
        ? 'the file has no text (it is blank or only markup)'
        : 'the file has no text',
    );
  const notes = parsed.notes?.length ? { notes: parsed.notes } : {};
  const layout = parsed.layout ?? (parsed.headings?.length ? { headings: parsed.headings } : undefined);
  return {
    name,
    format,
    title: parsed.title ?? baseName(name),
    text: parsed.text,
    ...notes,
    ...(parsed.ocr ? { ocr: parsed.ocr } : {}),
    ...(layout ? { layout } : {}),
  };
}
