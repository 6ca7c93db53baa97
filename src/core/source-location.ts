// Where a passage stands in its document: the PDF pages it spans, the heading path above
// it. A parser describes its document's layout as character offsets into the extracted
// text (where each page begins, where each heading stands); a passage's place follows from
// its own offsets. Pure: the browser, the worker and the Node indexer map alike.

/** A page of a paged document (PDF, or a scanned image as page 1), starting at `start` in the text. */
export interface PageStart {
  /** 1-based page number. */
  page: number;
  start: number;
  /** The number printed on the page where the PDF labels it and it differs ("22" on the file's page 25; "iv"). */
  label?: string;
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
  /** First and last page the passage spans (1-based, in the file). */
  page?: number;
  pageEnd?: number;
  /** The numbers printed on those pages, where the PDF labels them and they differ from the file's. */
  pageLabel?: string;
  pageEndLabel?: string;
  /** Headings above the passage, outermost first. */
  headings?: string[];
  /** The page was a scan: its text was recognised from the image. */
  scanned?: true;
  /** The original file on the site, for corpora the site serves (relative to the corpus's base). */
  url?: string;
}

/** The page holding `offset`: the last page starting at or before it. */
export function pageAt(pages: readonly PageStart[], offset: number): number | undefined {
  return pageStartAt(pages, offset)?.page;
}

function pageStartAt(pages: readonly PageStart[], offset: number): PageStart | undefined {
  let lo = 0;
  let hi = pages.length - 1;
  let found: PageStart | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (pages[mid]!.start <= offset) {
      found = pages[mid]!;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found ?? pages[0];
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
    const first = pageStartAt(layout.pages, start);
    // The last character, not `end`, which may be where the next page begins.
    const last = pageStartAt(layout.pages, Math.max(start, end - 1));
    if (first !== undefined) {
      out.page = first.page;
      if (first.label !== undefined) out.pageLabel = first.label;
      if (layout.ocrLines?.[first.page]) out.scanned = true;
      if (last !== undefined && last.page > first.page) {
        out.pageEnd = last.page;
        if (last.label !== undefined) out.pageEndLabel = last.label;
      }
    }
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
 * The place in words: "p. 12", "pp. 12–13" (the numbers printed on the pages), "Ch. 16 › Using Message Passing"; null when the
 * document has neither pages nor headings; PLACE_NOT_KNOWN for a passage stored before
 * locations were recorded. The document's own title is left out of the path where it
 * repeats it.
 */
export function placeLabel(p: { title: string; source?: PassageSource }): string | null {
  const s = p.source;
  if (!s) return PLACE_NOT_KNOWN;
  // A reader finds a page by the number printed on it, which is the file's where the PDF has no labels.
  if (s.page !== undefined) {
    const first = s.pageLabel ?? String(s.page);
    return s.pageEnd !== undefined && s.pageEnd > s.page
      ? `pp. ${first}–${s.pageEndLabel ?? String(s.pageEnd)}`
      : `p. ${first}`;
  }
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
