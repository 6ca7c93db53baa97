// Where a passage stands in its document: the PDF pages it spans, the heading path above
// it. A parser describes its document's layout as character offsets into the extracted
// text (where each page begins, where each heading stands); a passage's place follows from
// its own offsets. Pure: the browser, the worker and the Node indexer map alike.

/** A page of a paged document (PDF, or a scanned image as page 1), starting at `start` in the text. */
export interface PageStart {
  /** 1-based page number. */
  page: number;
  start: number;
}

/** A heading and where it stands in the text. */
export interface HeadingMark {
  /** 1 for a chapter (h1, `#`), up to 6. */
  level: number;
  title: string;
  start: number;
}

/** A line the recogniser read on a scanned page, boxed as fractions (0..1) of the page's width and height. */
export interface OcrLine {
  text: string;
  box: [x0: number, y0: number, x1: number, y1: number];
}

/** What a parser knows about its document's structure, stored with the document. */
export interface DocLayout {
  /** Pages in order (paged documents only). */
  pages?: PageStart[];
  /** Headings in document order. */
  headings?: HeadingMark[];
  /** Recognised lines per scanned page (page number → lines), for boxing them on the image. */
  ocrLines?: Record<number, OcrLine[]>;
}

/**
 * A passage's place. Present (possibly empty, for a plain text file) on every passage made
 * since locations were recorded; absent on passages of a library made before.
 */
export interface PassageSource {
  /** First and last page the passage spans (1-based). */
  page?: number;
  pageEnd?: number;
  /** Headings above the passage, outermost first. */
  headings?: string[];
  /** The page was a scan: its text was recognised from the image. */
  scanned?: true;
  /** The original file on the site, for corpora the site serves (relative to the corpus's base). */
  url?: string;
}

/** The page holding `offset`: the last page starting at or before it. */
export function pageAt(pages: readonly PageStart[], offset: number): number | undefined {
  let lo = 0;
  let hi = pages.length - 1;
  let found: number | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (pages[mid]!.start <= offset) {
      found = pages[mid]!.page;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found ?? pages[0]?.page;
}

/** The headings in force at `offset`: for each level, the latest heading before it that no outer heading closed. */
export function headingPathAt(headings: readonly HeadingMark[], offset: number): string[] {
  const stack: HeadingMark[] = [];
  for (const h of headings) {
    if (h.start > offset) break;
    while (stack.length && stack[stack.length - 1]!.level >= h.level) stack.pop();
    stack.push(h);
  }
  return stack.map((h) => h.title);
}

/** The place of the passage at [start, end) of the text. */
export function locatePassage(layout: DocLayout | undefined, start: number, end: number): PassageSource {
  const out: PassageSource = {};
  if (layout?.pages?.length) {
    const first = pageAt(layout.pages, start);
    // The last character, not `end`, which may be where the next page begins.
    const last = pageAt(layout.pages, Math.max(start, end - 1));
    if (first !== undefined) out.page = first;
    if (last !== undefined && first !== undefined && last > first) out.pageEnd = last;
    if (first !== undefined && layout.ocrLines?.[first]) out.scanned = true;
  }
  if (layout?.headings?.length) {
    // The middle, not the start: a passage opens with the overlap from the one before, often
    // the end of the previous section, while most of it stands under the heading it is about.
    const path = headingPathAt(layout.headings, start + Math.floor((end - start) / 2));
    if (path.length) out.headings = path;
  }
  return out;
}

export const PLACE_NOT_KNOWN = 'page not known (added before this version)';

/**
 * The place in words: "p. 12", "pp. 12–13", "Ch. 16 › Using Message Passing"; null when the
 * document has neither pages nor headings; PLACE_NOT_KNOWN for a passage stored before
 * locations were recorded. The document's own title is left out of the path where it
 * repeats it.
 */
export function placeLabel(p: { title: string; source?: PassageSource }): string | null {
  const s = p.source;
  if (!s) return PLACE_NOT_KNOWN;
  if (s.page !== undefined)
    return s.pageEnd !== undefined && s.pageEnd > s.page ? `pp. ${s.page}–${s.pageEnd}` : `p. ${s.page}`;
  const path = (s.headings ?? []).filter((h, i) => !(i === 0 && same(h, p.title)));
  return path.length ? path.join(' › ') : null;
}

/** "Debian Policy, p. 12", "Rust book › Ch. 16 › Using Message Passing", or "Title · passage 3" where no place is known. */
export function citationLabel(p: { title: string; index: number; source?: PassageSource }): string {
  const place = placeLabel(p);
  if (place === null || place === PLACE_NOT_KNOWN) return `${p.title} · passage ${p.index + 1}`;
  return p.source?.page !== undefined ? `${p.title}, ${place}` : `${p.title} › ${place}`;
}

function same(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
}
