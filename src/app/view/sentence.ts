// Error texts come from engines and browsers, often without a full stop ("Failed to fetch");
// the page puts its advice right after them, which read as one run-on line without it.

/** Joins sentences with one space, ending each that lacks closing punctuation with a full stop. */
export function sentences(...parts: Array<string | undefined>): string {
  return parts
    .map((p) => p?.trim() ?? '')
    .filter((p) => p.length > 0)
    .map((p) => (/[.!?:…)"'”]$/.test(p) ? p : `${p}.`))
    .join(' ');
}
