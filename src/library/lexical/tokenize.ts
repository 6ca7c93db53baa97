// How passages and questions are cut into terms for BM25. Identifiers are what small
// embedders miss, so a compound like `ERR_CONN_4471`, `v2.3.1` or `XK-900` is indexed
// whole AND as its parts: the whole token is rare (high IDF) and matches exactly, the parts
// still match a question that spells it with spaces.
// Bump TOKENIZER_VERSION whenever the output changes: persisted indexes made by another
// version are rebuilt instead of silently mismatching the questions' terms.
export const TOKENIZER_VERSION = 1;

// Runs of letters/digits joined by _ - . / : ' (the joiner must sit between two word characters).
const WORDISH = /[\p{L}\p{N}]+(?:[_\-./:'’][\p{L}\p{N}]+)*/gu;
const JOINER = /[_\-./:'’]/u;
const PART = /[\p{L}\p{N}]+/gu;

// Frequent English function words: dropping them keeps posting lists short (latency) and
// they carry almost no BM25 weight anyway.
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this to was we were what ' +
    'when where which who whom why will with you your'
  ).split(' '),
);

/** Lower-cased terms of a text, compounds whole and split, function words dropped. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORDISH)) {
    const word = m[0];
    if (JOINER.test(word)) {
      out.push(word);
      for (const p of word.matchAll(PART)) if (!STOP_WORDS.has(p[0])) out.push(p[0]);
    } else if (!STOP_WORDS.has(word)) {
      out.push(word);
    }
  }
  return out;
}
