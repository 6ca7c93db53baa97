// The recogniser's port in a browser worker (the library worker): pdf.js renders a
// page into an OffscreenCanvas right here, an image is decoded here by
// createImageBitmap, and the bitmap is handed (transferred, not copied) to the OCR
// worker. Nothing of it touches the page's main thread, so no main-thread task
// grows with the size of a scan. pdf.js needs two stand-ins to render outside a
// document: a canvas factory making OffscreenCanvases and a filter factory without
// SVG filters (they only tint, which recognition does not need); with
// `disableFontFace` any glyphs on a thin text layer are drawn as paths rather than
// through the document's FontFaceSet, which a worker lacks in pdf.js's eyes.
import { fitScale } from './limits';
import { UndecodableImage, type OcrPort, type RenderablePage } from './port';
import type { Recognition } from './recognition';

type Recognise = (bitmap: ImageBitmap, dpi?: number) => Promise<Recognition>;

interface CanvasAndContext {
  canvas: OffscreenCanvas | null;
  context: OffscreenCanvasRenderingContext2D | null;
}

class OffscreenCanvasFactory {
  create(width: number, height: number): CanvasAndContext {
    if (width <= 0 || height <= 0) throw new Error('Invalid canvas size');
    const canvas = new OffscreenCanvas(width, height);
    return { canvas, context: canvas.getContext('2d', { willReadFrequently: true }) };
  }
  reset(entry: CanvasAndContext, width: number, height: number): void {
    if (!entry.canvas) throw new Error('Canvas is not specified');
    entry.canvas.width = width;
    entry.canvas.height = height;
  }
  destroy(entry: CanvasAndContext): void {
    if (entry.canvas) entry.canvas.width = entry.canvas.height = 0;
    entry.canvas = null;
    entry.context = null;
  }
}

class NoFilterFactory {
  addFilter(): string {
    return 'none';
  }
  addHCMFilter(): string {
    return 'none';
  }
  addAlphaFilter(): string {
    return 'none';
  }
  addLuminosityFilter(): string {
    return 'none';
  }
  addHighlightHCMFilter(): string {
    return 'none';
  }
  destroy(): void {}
}

interface PdfRenderPage extends RenderablePage {
  render(opts: { canvasContext: OffscreenCanvasRenderingContext2D; viewport: unknown; background?: string }): {
    promise: Promise<void>;
  };
}

export function createBrowserOcrPort(recognise: Recognise, onProgress?: OcrPort['onProgress']): OcrPort {
  return {
    pdfParams: { CanvasFactory: OffscreenCanvasFactory, FilterFactory: NoFilterFactory, disableFontFace: true },
    async recognisePdfPage(page, scale) {
      const viewport = page.getViewport({ scale });
      const width = Math.max(1, Math.ceil(viewport.width));
      const height = Math.max(1, Math.ceil(viewport.height));
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d')!;
      await (page as PdfRenderPage).render({ canvasContext: context, viewport, background: 'white' }).promise;
      const bitmap = canvas.transferToImageBitmap();
      canvas.width = canvas.height = 0;
      return recognise(bitmap, scale * 72);
    },
    async recogniseImage(bytes, { width, height }) {
      const scale = fitScale(width, height);
      let bitmap: ImageBitmap;
      try {
        // Only the width is given when shrinking: the height follows the image's own aspect,
        // which stays right when a photo's orientation turns it on its side.
        bitmap = await createImageBitmap(
          new Blob([bytes as Uint8Array<ArrayBuffer>]),
          scale < 1 ? { resizeWidth: Math.max(1, Math.round(width * scale)), resizeQuality: 'high' } : {},
        );
      } catch (e) {
        throw new UndecodableImage(e);
      }
      return recognise(bitmap);
    },
    ...(onProgress ? { onProgress } : {}),
  };
}
