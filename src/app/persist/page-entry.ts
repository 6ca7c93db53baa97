// The thread open on this page, kept in the history entry (history.state). A reload keeps an
// entry's state but starts the page afresh: this is how it finds the thread that was open without
// reading the address's question, which names the answer shown (a shareable link) and would
// otherwise be asked again. A new visit from a link has no entry, so its question is asked once.
// The state is untrusted (another script on the origin may have written it): only strings pass.

const KEY = 'selfragOpen';

export interface PageEntry {
  /** The thread shown, or null for a new, empty one. */
  thread: string | null;
  /** The turn shown in full. */
  viewed: string | null;
}

const idOrNull = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : null);

/** The entry this page kept in `state` (history.state), or null when it kept none (a new visit). */
export function readPageEntry(state: unknown): PageEntry | null {
  if (typeof state !== 'object' || state === null) return null;
  const e = (state as Record<string, unknown>)[KEY];
  if (typeof e !== 'object' || e === null) return null;
  const { thread, viewed } = e as Record<string, unknown>;
  return { thread: idOrNull(thread), viewed: idOrNull(viewed) };
}

/** `state` with the entry set; whatever else it holds (another script's keys) is kept. */
export function withPageEntry(state: unknown, entry: PageEntry): Record<string, unknown> {
  const base = typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
  return { ...base, [KEY]: { thread: entry.thread, viewed: entry.viewed } };
}

export const sameEntry = (a: PageEntry | null, b: PageEntry): boolean =>
  a !== null && a.thread === b.thread && a.viewed === b.viewed;
