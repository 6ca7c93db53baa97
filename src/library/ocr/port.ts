// What parsing needs from a text recogniser. In the browser it renders pages and
// decodes images in the library worker and recognises them in the OCR worker
// (browser-port.ts); tests pass their own; without one, scans are not recognised.
import type { Recognition } from './recognition';
import { errorMessage } from '../../core/errors';

/** The slice of a pdf.js page that rendering needs. */
export interface RenderablePage {
  getViewport(opts: { scale: number }): { width: number; height: number };
}

export interface OcrProgress {
  /** 0-based index of the page being recognised among those to recognise, and how many there are. */
  done: number;
  total: number;
  /** The page number (1-based) about to be recognised. */
  page: number;
}

export interface OcrPort {
  /** Extra pdf.js getDocument parameters that make rendering possible where the port renders (a canvas factory in a worker). */
  pdfParams?: Record<string, unknown>;
  /** Renders one PDF page at `scale` (pixels per point) and recognises it. */
  recognisePdfPage(page: RenderablePage, scale: number): Promise<Recognition>;
  /** Decodes an image already checked from its header (`width` × `height` declared) and recognises it. */
  recogniseImage(bytes: Uint8Array, size: { width: number; height: number }): Promise<Recognition>;
  /** Called before each page is recognised, and once more when all are done. */
  onProgress?(p: OcrProgress): void;
}

/** The image's bytes could not be decoded: it is damaged, or not what its header says. */
export class UndecodableImage extends Error {
  constructor(cause: unknown) {
    super(errorMessage(cause));
    this.name = 'UndecodableImage';
  }
}
