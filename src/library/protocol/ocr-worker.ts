// The comlink surface of workers/ocr.worker.ts, started by the library worker on the
// first scan. Pages cross as transferred ImageBitmaps.
import type { Recognition } from '../ocr/recognition';

export interface OcrWorkerApi {
  /** Recognises one page; `dpi` is the resolution it was rendered at, when known (Tesseract sizes its filters by it). The bitmap is closed. */
  recognise(bitmap: ImageBitmap, dpi?: number): Promise<Recognition>;
}
