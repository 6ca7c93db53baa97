// Which of the library's documents the list shows: a library of thousands would otherwise be
// a page tens of thousands of pixels tall, rendered whole on every change.
import type { LibraryDocView } from '../state/library';

/** From this many documents the list gets a Find box and scrolls in its own box. */
export const FIND_FROM = 12;
/** Rows rendered at most; the rest are reached by typing in Find. */
export const SHOWN_AT_MOST = 300;

export interface DocFilterResult {
  shown: LibraryDocView[];
  /** Documents matching the query (all of them when the query is empty). */
  matching: number;
}

/** Documents whose title or file name holds every word of `query` (any case), the first `limit` of them. */
export function filterDocs(docs: readonly LibraryDocView[], query: string, limit = SHOWN_AT_MOST): DocFilterResult {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const match = (d: LibraryDocView) => {
    const hay = `${d.title}\n${d.name ?? ''}`.toLocaleLowerCase();
    return words.every((w) => hay.includes(w));
  };
  const all = words.length ? docs.filter(match) : docs;
  return { shown: all.slice(0, limit), matching: all.length };
}

/** The line under a list cut short, or null when every match is shown. */
export function moreText(r: DocFilterResult, total: number, query: string): string | null {
  if (r.matching === 0) return query.trim() ? `No document’s title or file name holds “${query.trim()}”.` : null;
  if (r.shown.length >= r.matching) return null;
  const of =
    r.matching === total
      ? `${total.toLocaleString('en')} documents`
      : `${r.matching.toLocaleString('en')} matching documents`;
  return `Showing ${r.shown.length.toLocaleString('en')} of ${of}: type in Find to narrow the list.`;
}
