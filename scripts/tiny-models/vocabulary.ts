// The tiny models' vocabulary: every lower-cased word of the repository's sample,
// evaluation and fixture texts, plus a fixed base list, so tests and the demo
// corpus tokenise to real words instead of [UNK].
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fnv1aString } from '../../src/core/fnv1a';

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'] as const;

/** Low-information words: small weight in the embedder, ignored by the overlap models. */
export const STOPWORDS = new Set(
  `a an the and or but if then so of to in on at by for with from as into onto over under about after before
  is are was were be been being am do does did has have had having it its this that these those there here
  i you he she we they me him her us them my your his our their what which who whom whose when where why how
  can could will would shall should may might must also than too very just only such each any all some most
  more many much other own same both few s t`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Negation markers for the NLI rule. Contractions split at the apostrophe under the
 * Whitespace pre-tokeniser ("isn't" → "isn", "'", "t"), so their first parts count too.
 */
export const NEGATIONS = new Set(
  `not no never none nothing nobody neither nor cannot without isn aren wasn weren doesn don didn hasn haven hadn
  won wouldn shouldn couldn can't`
    .split(/\s+/)
    .filter((w) => /^\w+$/.test(w)),
);

const BASE_WORDS = `
apple banana bread water river ocean moon sun earth star planet city country king queen war peace music art
science history language computer program memory paris france london england germany berlin capital tower
eiffel built year century people animal plant tree flower bee honey dog cat bird fish forest mountain rain
snow wind fire light dark cold hot big small new old good bad first last long short high low red blue green
made make makes eat eats grow grows live lives find found know known read write written book books paper
`;

const TEXT_EXTENSIONS = new Set(['.txt', '.md', '.markdown', '.html', '.htm', '.json', '.jsonl', '.csv']);
const WORD = /\w+/gu;

/** Same split as the tokenizer's Whitespace pre-tokeniser (`\w+|[^\w\s]+`), words only. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

function walk(dir: string, skip: (path: string) => boolean, out: string[]): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (skip(path)) continue;
    const st = statSync(path);
    if (st.isDirectory()) walk(path, skip, out);
    else if (TEXT_EXTENSIONS.has(extname(name).toLowerCase()) && st.size < 5_000_000) out.push(path);
  }
}

export interface CorpusScan {
  /** Files read, relative to the root, sorted. */
  files: string[];
  words: string[];
  /** Changes when any scanned file or this vocabulary code changes. */
  fingerprint: string;
}

export const CORPUS_DIRS = ['public/sample', 'public/eval', 'test/fixtures'];

export function scanCorpus(root: string, generatorSources: string[]): CorpusScan {
  const skipDir = join(root, 'test/fixtures/models');
  const files: string[] = [];
  for (const d of CORPUS_DIRS) walk(join(root, d), (p) => p === skipDir || p.startsWith(skipDir + '/'), files);
  const hash = createHash('sha256');
  for (const src of generatorSources) hash.update(readFileSync(src));
  const set = new Set<string>([...words(BASE_WORDS), ...STOPWORDS, ...NEGATIONS]);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    hash.update(relative(root, f)).update('\0').update(text).update('\0');
    for (const w of words(text)) if (w.length <= 40) set.add(w);
  }
  return {
    files: files.map((f) => relative(root, f)),
    words: [...set].sort(),
    fingerprint: hash.digest('hex'),
  };
}

/** FNV-1a: a stable 32-bit hash, so the same word lands in the same bucket on every run. */
export function fnv1a(word: string): number {
  return fnv1aString(word) >>> 0;
}
