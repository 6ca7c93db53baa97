// pdf.js on the page's main thread, for showing a page: the canvas, and the text layer whose
// spans (text nodes, never markup) carry the highlight. The document stays inert: no eval
// (isEvalSupported false), no XFA forms, no annotation layer (so no link, no form, no
// script action is drawn or run), no scripting, and nothing fetched but the bytes given.
import type { PDFDocumentProxy } from 'pdfjs-dist';

export interface ShownPage {
  /** The text layer's strings and their spans, in the same order. */
  items: string[];
  spans: HTMLElement[];
}

export interface OpenedPdf {
  numPages: number;
  /** The page numbers printed on the pages where the PDF labels them (index 0 is page 1), else null. */
  labels: readonly string[] | null;
  /** Draws page `n` (1-based) `width` CSS pixels wide into `canvas`, and its text layer into `layer` unless `textLayer` is false. */
  show(n: number, canvas: HTMLCanvasElement, layer: HTMLElement, width: number, textLayer: boolean): Promise<ShownPage>;
  close(): void;
}

export async function openPdf(blob: Blob): Promise<OpenedPdf> {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  const doc: PDFDocumentProxy = await pdfjs.getDocument({
    data: new Uint8Array(await blob.arrayBuffer()),
    isEvalSupported: false,
    enableXfa: false,
    disableAutoFetch: true,
    disableStream: true,
    disableRange: true,
    verbosity: 0,
  }).promise;
  let task: { cancel(): void } | null = null;
  // A damaged label tree costs only the printed numbers, never the page.
  const labels = await doc.getPageLabels().catch(() => null);
  return {
    numPages: doc.numPages,
    labels,
    async show(n, canvas, layer, width, textLayer) {
      task?.cancel();
      const page = await doc.getPage(n);
      const scale = width / page.getViewport({ scale: 1 }).width;
      const viewport = page.getViewport({ scale });
      const ratio = globalThis.devicePixelRatio || 1;
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      const render = page.render({
        canvas,
        canvasContext: canvas.getContext('2d')!,
        viewport,
        annotationMode: pdfjs.AnnotationMode.DISABLE,
        ...(ratio !== 1 ? { transform: [ratio, 0, 0, ratio, 0, 0] } : {}),
      });
      task = render;
      await render.promise;
      layer.replaceChildren();
      if (!textLayer) return { items: [], spans: [] };
      layer.style.setProperty('--total-scale-factor', String(scale));
      const text = new pdfjs.TextLayer({ textContentSource: await page.getTextContent(), container: layer, viewport });
      await text.render();
      return { items: text.textContentItemsStr, spans: text.textDivs };
    },
    close() {
      task?.cancel();
      void doc.destroy();
    },
  };
}
