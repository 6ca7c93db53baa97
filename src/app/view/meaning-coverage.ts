// How much of the library search by meaning reaches: passages with vectors out of all passages.
// While a batch is being embedded (or while the embedding model cannot run) some documents are
// kept by their words only; a question searched then finds those by their words, and its answer
// says so. Counted from the library's list (each document's passages, and whether it waits for
// its vectors), not estimated.
import type { MeaningCoverage } from '../state/answer';
import type { LibraryDocView } from '../state/library';

/** The library's coverage now, from its documents as listed. */
export function meaningCoverage(docs: readonly Pick<LibraryDocView, 'passages' | 'pending'>[]): MeaningCoverage {
  let embedded = 0;
  let total = 0;
  for (const d of docs) {
    const n = Number.isFinite(d.passages) && d.passages > 0 ? Math.floor(d.passages) : 0;
    total += n;
    if (!d.pending) embedded += n;
  }
  return { embedded, total };
}

/** Only a coverage short of the whole library is worth keeping with an answer. */
export function partialCoverage(c: MeaningCoverage | null | undefined): MeaningCoverage | null {
  return c && c.total > 0 && c.embedded < c.total ? { embedded: c.embedded, total: c.total } : null;
}

/** A kept coverage as stored (a thread file may hold anything), or null when it is not one. */
export function sanitizeCoverage(raw: unknown): MeaningCoverage | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const { embedded, total } = raw as Record<string, unknown>;
  const count = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null);
  const e = count(embedded);
  const t = count(total);
  return e === null || t === null || e > t ? null : partialCoverage({ embedded: e, total: t });
}

const count = (n: number, one: string) => `${n.toLocaleString('en')} ${one}${n === 1 ? '' : 's'}`;

/** What the answer to a question searched while part of the library had no vectors says about it; null otherwise. */
export function coverageNotice(c: MeaningCoverage | null | undefined): string | null {
  const partial = partialCoverage(c);
  if (!partial) return null;
  return `Meaning search covers ${partial.embedded.toLocaleString('en')} of ${count(partial.total, 'passage')} so far; the rest are found by their words.`;
}
