// What recognition returns and how a document records it: which pages were
// recognised, the recogniser's mean confidence, and the notes a batch report
// shows (pages kept despite low confidence, pages with nothing recognisable).
import type { OcrLine } from '../../core/source-location';
import { LOW_CONFIDENCE, MIN_RECOGNISED_CHARS } from './limits';

export interface Recognition {
  text: string;
  /** Tesseract's mean word confidence, 0-100. */
  confidence: number;
  /** The lines read, boxed as fractions of the page (absent from recognisers that do not box them). */
  lines?: OcrLine[];
}

/** The part of a document that came from recognition, stored with it. */
export interface OcrRecord {
  /** 1-based page numbers recognised (an image is page 1). */
  pages: number[];
  /** Mean confidence over those pages, weighted by recognised characters, 0-100. */
  meanConfidence: number;
  /** Pages kept although recognised with less than LOW_CONFIDENCE. */
  lowConfidencePages: number[];
  /** Pages where nothing recognisable was found (left out of the text). */
  emptyPages: number[];
}

/** Letters and digits: what tells text from the specks Tesseract reads in a photo or a blank page. */
export function recognisedChars(text: string): number {
  let n = 0;
  for (const ch of text) if (/[\p{L}\p{N}]/u.test(ch)) n++;
  return n;
}

export function hasRecognisedText(r: Recognition): boolean {
  return recognisedChars(r.text) >= MIN_RECOGNISED_CHARS;
}

/** Tidies Tesseract's output: its line breaks are kept, runs of spaces and blank lines are not. */
export function cleanRecognisedText(text: string): string {
  return text
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Builds the record for a document from its recognised pages (page number → result). */
export function ocrRecord(results: ReadonlyMap<number, Recognition>): OcrRecord {
  const pages = [...results.keys()].sort((a, b) => a - b);
  let weight = 0;
  let sum = 0;
  const lowConfidencePages: number[] = [];
  const emptyPages: number[] = [];
  for (const page of pages) {
    const r = results.get(page)!;
    if (!hasRecognisedText(r)) {
      emptyPages.push(page);
      continue;
    }
    const w = recognisedChars(r.text);
    weight += w;
    sum += w * r.confidence;
    if (r.confidence < LOW_CONFIDENCE) lowConfidencePages.push(page);
  }
  return { pages, meanConfidence: weight ? Math.round(sum / weight) : 0, lowConfidencePages, emptyPages };
}

const list = (pages: number[]) => `${pages.length === 1 ? 'page' : 'pages'} ${pages.join(', ')}`;

/** Plain-words notes for the batch report; `pageCount` 0 means a single image. */
export function ocrNotes(record: OcrRecord, pageCount: number): string[] {
  const notes: string[] = [];
  const image = pageCount === 0;
  const read = record.pages.length - record.emptyPages.length;
  if (read > 0) {
    notes.push(
      image
        ? `its text was recognised from the image (mean confidence ${record.meanConfidence} %)`
        : pageCount === 1
          ? `its page had no text layer and was recognised (mean confidence ${record.meanConfidence} %)`
          : `${read} of its ${pageCount} pages had no text layer and ${read === 1 ? 'was' : 'were'} recognised (mean confidence ${record.meanConfidence} %)`,
    );
  }
  if (record.lowConfidencePages.length) {
    notes.push(
      image
        ? `it was recognised with low confidence (under ${LOW_CONFIDENCE} %): its text may hold misread words; a sharper, straighter scan reads better`
        : `${list(record.lowConfidencePages)} ${record.lowConfidencePages.length === 1 ? 'was' : 'were'} recognised with low confidence (under ${LOW_CONFIDENCE} %) and may hold misread words`,
    );
  }
  if (!image && record.emptyPages.length)
    notes.push(
      `${list(record.emptyPages)} had no recognisable text and ${record.emptyPages.length === 1 ? 'was' : 'were'} left out`,
    );
  return notes;
}
