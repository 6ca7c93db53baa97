// A photographed or scanned page saved as an image: its header is checked before
// anything decodes it, then it is recognised as one page.
import type { DocLayout } from '../../core/source-location';
import { readImageHeader } from '../ocr/image-header';
import { checkImageHeader } from '../ocr/limits';
import { UndecodableImage, type OcrPort } from '../ocr/port';
import { cleanRecognisedText, hasRecognisedText, ocrNotes, ocrRecord, type OcrRecord } from '../ocr/recognition';
import { RefusedFile } from './refusal';

export async function parseImage(
  name: string,
  bytes: Uint8Array,
  ocr: OcrPort | undefined,
): Promise<{ text: string; notes: string[]; ocr: OcrRecord; layout: DocLayout }> {
  const size = checkImageHeader(name, readImageHeader(bytes));
  if (!ocr)
    throw new RefusedFile(
      name,
      'images are read by recognising their text, which only the web page does; add it there',
    );
  ocr.onProgress?.({ done: 0, total: 1, page: 1 });
  let result: Awaited<ReturnType<OcrPort['recogniseImage']>>;
  try {
    result = await ocr.recogniseImage(bytes, size);
  } catch (e) {
    if (e instanceof UndecodableImage)
      throw new RefusedFile(name, `the image is damaged and could not be decoded (${e.message})`);
    throw e;
  }
  ocr.onProgress?.({ done: 1, total: 1, page: 1 });
  if (!hasRecognisedText(result)) {
    throw new RefusedFile(
      name,
      'no text was recognised in the image (it may be a photograph without writing, or too blurred, dark or small to read); it was left out',
    );
  }
  const record = ocrRecord(new Map([[1, result]]));
  // The image is the one page, its recognised lines boxed on it.
  const layout: DocLayout = { pages: [{ page: 1, start: 0 }], ocrLines: { 1: result.lines ?? [] } };
  return { text: cleanRecognisedText(result.text), notes: ocrNotes(record, 0), ocr: record, layout };
}
