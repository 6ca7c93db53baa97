// The limits a scan is held to, each checked before the costly step it guards,
// and each refusal worded so a reader knows what to do next.
import { RefusedFile } from '../parse/refusal';
import type { ImageHeader } from './image-header';

/**
 * Pages are rendered for recognition at 300 dpi, Tesseract's reference resolution:
 * body text of 10-12 pt then has an x-height of about 20-25 px, where its LSTM
 * model reads best; at 150 dpi small print drops below 12 px and words go missing.
 */
export const OCR_DPI = 300;

/**
 * The most pixels one page is recognised at (about A4 at 300 dpi, 8.7 MP): a large
 * page (a poster, an A3 plan) is rendered at whatever dpi fits, which bounds the
 * memory of a page (one grey byte and one RGBA bitmap of this size at a time).
 */
export const MAX_OCR_PIXELS = 9_000_000;

/**
 * The largest image taken at all (50 MP: phone cameras save up to 48-50 MP). Its
 * decoded RGBA bitmap is 200 MB; a larger declared size is refused unread as a
 * decompression bomb. Each side is also held to what a browser can decode.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
export const MAX_IMAGE_SIDE = 16_384;

/**
 * A PDF with more pages to recognise than this is refused whole: at a few seconds
 * a page it would hold the library for hours, and a reader is better served by
 * splitting it (or by a desktop OCR tool that writes a text layer).
 */
export const MAX_OCR_PAGES = 500;

/** Mean word confidence (0-100) below which a recognised page is kept but named in the batch report. */
export const LOW_CONFIDENCE = 60;

/** Fewer recognised letters or digits than this, and the image is taken to hold no text. */
export const MIN_RECOGNISED_CHARS = 10;

export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'webp'];

/** Formats recognised; anything else an image may be is refused with a reason. */
const RECOGNISED: ReadonlySet<ImageHeader['format']> = new Set(['png', 'jpeg', 'webp']);

const REFUSED_FORMAT: Partial<Record<ImageHeader['format'], string>> = {
  tiff: 'TIFF images are not recognised here (browsers cannot decode them); save the page as PNG or JPEG, or as a PDF',
  heic: 'HEIC photos are not recognised here (browsers cannot decode them); export the photo as JPEG (on an iPhone: Settings › Camera › Formats › Most Compatible)',
  avif: 'AVIF images are not recognised here; save the page as PNG or JPEG',
  gif: 'GIF images are not recognised here; save the page as PNG or JPEG',
  bmp: 'BMP images are not recognised here; save the page as PNG or JPEG',
};

/** Refuses an image whose format is not recognised or whose declared size is unsafe to decode, from its header alone. */
export function checkImageHeader(name: string, header: ImageHeader | null): { width: number; height: number } {
  if (!header)
    throw new RefusedFile(
      name,
      'the file is not an image this page can read (it is not PNG, JPEG or WebP, or it is damaged)',
    );
  const refused = REFUSED_FORMAT[header.format];
  if (refused || !RECOGNISED.has(header.format))
    throw new RefusedFile(name, refused ?? `${header.format} images are not recognised here`);
  const { width, height } = header;
  if (!width || !height)
    throw new RefusedFile(name, `the ${header.format.toUpperCase()} image is damaged (its header declares no size)`);
  if (width * height > MAX_IMAGE_PIXELS || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new RefusedFile(
      name,
      `the image declares ${width} × ${height} pixels (${((width * height) / 1e6).toFixed(0)} MP), more than the ${MAX_IMAGE_PIXELS / 1e6} MP (and ${MAX_IMAGE_SIDE} px a side) this page decodes; it was not opened. Scale it down (a page needs about 2500 × 3500) and add it again`,
    );
  }
  return { width, height };
}

export function checkOcrPageCount(name: string, scannedPages: number): void {
  if (scannedPages > MAX_OCR_PAGES) {
    throw new RefusedFile(
      name,
      `it has ${scannedPages} scanned pages without text, more than the ${MAX_OCR_PAGES} this page recognises in one file (it would take hours and hold the library meanwhile); split it into parts of at most ${MAX_OCR_PAGES} pages, or give it a text layer with a desktop OCR tool (such as OCRmyPDF), and add it again`,
    );
  }
}

/**
 * The scale from a size in PDF points (1/72 inch) or source pixels to the pixels
 * recognised: OCR_DPI for a PDF page, never more than MAX_OCR_PIXELS in all.
 */
export function pdfRenderScale(widthPt: number, heightPt: number): number {
  const scale = OCR_DPI / 72;
  return Math.min(scale, fitScale(widthPt * scale, heightPt * scale) * scale);
}

/** The factor (at most 1) that brings an image of this size within MAX_OCR_PIXELS. */
export function fitScale(width: number, height: number): number {
  const pixels = width * height;
  return pixels > MAX_OCR_PIXELS ? Math.sqrt(MAX_OCR_PIXELS / pixels) : 1;
}

export function isImageName(name: string): boolean {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return ext !== undefined && IMAGE_EXTENSIONS.includes(ext);
}
