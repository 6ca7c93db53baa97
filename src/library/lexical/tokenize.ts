// How passages and questions are cut into terms for BM25. Identifiers are what small
// embedders miss, so an identifier is indexed whole, as typed, AND by its parts: the whole
// term is rare (high IDF) and matches exactly, the parts still match a question that spells
// it with spaces or names one piece. The shapes: compounds (`ERR_CONN_4471`, `v2.3.1`,
// `XK-900`, `asn1_der_decoding`), paths (`std::sync::mpsc`, whose segments are terms too:
// `fs::read_to_string` gives `read_to_string`), generic types (`Rc<T>`, `HashMap<K, V>`) and
// command-line options (`--release`, `-R`).
// Bump TOKENIZER_VERSION whenever the output changes: persisted indexes made by another
// version are rebuilt instead of silently mismatching the questions' terms.
export const TOKENIZER_VERSION = 2;

// An optional option dash or two (not after a word: "XK-900" is one compound), runs of
// letters/digits joined by `::` or one of _ - . / : ' ’ (between two word characters), and an
// optional generic argument list without nesting.
const TOKEN =
  /(?<![\p{L}\p{N}-])(?:--?(?=[\p{L}\p{N}]))?[\p{L}\p{N}]+(?:(?:::|[_\-./:'’])[\p{L}\p{N}]+)*(?:<[\p{L}\p{N}_:&',’ ]{1,60}>)?/gu;
const PART = /[\p{L}\p{N}]+/gu;
const COMPOUND = /^-|::|[_\-./:'’<]/u;

// Frequent English function words: dropping them keeps posting lists short (latency) and
// they carry almost no BM25 weight anyway.
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this to was we were what ' +
    'when where which who whom why will with you your'
  ).split(' '),
);

/** Lower-cased terms of a text: identifiers whole and by their parts, function words dropped. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(TOKEN)) {
    // Spaces after commas do not matter in a type ("HashMap<K, V>" is "HashMap<K,V>").
    const word = m[0].replace(/,\s+/g, ',');
    if (!COMPOUND.test(word)) {
      if (!STOP_WORDS.has(word)) out.push(word);
      continue;
    }
    const terms = new Set<string>([word]);
    // A path's segments that are compounds themselves ("read_to_string") are terms too.
    if (word.includes('::')) for (const s of word.split('::')) if (COMPOUND.test(s)) terms.add(s);
    for (const p of word.matchAll(PART)) if (!STOP_WORDS.has(p[0])) terms.add(p[0]);
    out.push(...terms);
  }
  return out;
}
