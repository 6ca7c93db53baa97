// The one detector of a full-storage failure, and the library's words for it. The library
// refuses a document with these words; the page (src/app/storage.ts) recognises them, and
// web-llm's string errors, to say what to delete.

/** The one place that words a full-storage failure when a document cannot be stored. */
export function storageFullMessage(): string {
  return "the browser's storage for this site is full (remove documents or free disk space, then add it again)";
}

/**
 * A QuotaExceededError, however it arrives: a DOMException from IndexedDB or the Cache API,
 * a string (web-llm's worker sends its errors as text), or the library's own refusal above.
 */
export function isQuotaError(e: unknown): boolean {
  if (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'QuotaExceededError') return true;
  const text = typeof e === 'string' ? e : e instanceof Error ? `${e.name} ${e.message}` : '';
  return /QuotaExceeded|\bquota\b|storage for this site is full/i.test(text);
}
