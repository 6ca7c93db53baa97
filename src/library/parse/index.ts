// One entry point from raw bytes to extracted text, or a refusal naming the file and the reason.
import { parseHtml } from './html';
import { parseMarkdown } from './markdown';
import { isPdf, parsePdf, type PdfLoader } from './pdf';
import { RefusedFile } from './refusal';
import { parsePlainText } from './text';
import { checkNotBinary, checkSize, decodeText, MAX_FILE_BYTES } from './validate';

export { RefusedFile } from './refusal';
export { MAX_FILE_BYTES } from './validate';
export type { PdfLoader } from './pdf';

export type DocFormat = 'text' | 'markdown' | 'html' | 'pdf';

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
}

export interface ParseOptions {
  maxBytes?: number;
  /** Without it PDFs are refused with a message saying so. */
  pdf?: PdfLoader;
}

export function detectFormat(name: string, type = '', bytes?: Uint8Array): DocFormat {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  if (ext === 'pdf' || type === 'application/pdf' || (bytes && isPdf(bytes))) return 'pdf';
  if (['html', 'htm', 'xhtml'].includes(ext) || type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (['md', 'markdown', 'mdown', 'mkd'].includes(ext) || type === 'text/markdown') return 'markdown';
  return 'text';
}

const UNSUPPORTED = /\.(docx?|xlsx?|pptx?|odt|ods|odp|rtf|epub|zip|gz|tar|7z|rar|png|jpe?g|gif|webp|bmp|ico|mp3|mp4|wav|ogg|webm|exe|dll|so|wasm|bin)$/i;

function baseName(name: string): string {
  return name.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '') || name;
}

export async function parseDocument(file: RawFile, opts: ParseOptions = {}): Promise<ParsedDocument> {
  const { name, bytes } = file;
  checkSize(name, bytes, opts.maxBytes ?? MAX_FILE_BYTES);
  const format = detectFormat(name, file.type, bytes);
  let parsed: { text: string; title?: string };
  if (format === 'pdf') {
    if (!opts.pdf) throw new RefusedFile(name, 'PDF files are not supported here');
    if (!isPdf(bytes)) throw new RefusedFile(name, 'the file is named .pdf but is not a PDF');
    parsed = await parsePdf(name, bytes, opts.pdf);
  } else {
    const ext = UNSUPPORTED.exec(name)?.[1];
    if (ext) throw new RefusedFile(name, `.${ext} files are not supported (use text, Markdown, HTML or PDF)`);
    checkNotBinary(name, bytes);
    const source = decodeText(name, bytes).replace(/^\ufeff/, '');
    parsed = format === 'html' ? parseHtml(source) : format === 'markdown' ? parseMarkdown(source) : parsePlainText(source);
  }
  if (!parsed.text.trim()) throw new RefusedFile(name, 'the file has no text');
  return { name, format, title: parsed.title ?? baseName(name), text: parsed.text };
}
