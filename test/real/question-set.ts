// The labelled real question set (test/fixtures/real/questions.json, docs.json, threads.json):
// questions over documentation no one on this project wrote, written by reading it, with the one
// matching rule every measurement uses (gold answer in a text, evidence passage in a text) and the
// place each document lives on this machine.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { parseDocument } from '../../src/library/parse';
import { loadPdfJsInNode } from '../../src/library/parse/pdf-node';

export type DocKind = 'rust-book' | 'debian-pdf' | 'debian-html';
export type Split = 'dev' | 'test';

export interface RealQuestion {
  id: string;
  question: string;
  /** Short gold answers, any one of which a correct answer contains (see containsGold). */
  answers: string[];
  /** A key of docs.json. */
  doc: string;
  /** A verbatim sentence or phrase of the document that holds the answer: it identifies the passage. */
  evidence: string;
  kind: DocKind;
  /** dev: may be looked at while designing prompts; test: held out, reported only. */
  split: Split;
}

export interface RealDoc {
  kind: DocKind;
  /** The Debian package that installs the last candidate. */
  package: string;
  title?: string;
  /** Paths in order of preference; `~/` is the home directory and a `*` segment any one directory. */
  candidates: string[];
  note?: string;
}

export interface FollowUp {
  id: string;
  /** The question of questions.json asked just before. */
  firstId: string;
  first: string;
  /** Only makes sense after `first` ("And how do I uninstall it?"). */
  followUp: string;
  /** The follow-up written to stand alone. */
  standalone: string;
  answers: string[];
  doc: string;
  evidence: string;
}

export interface MixedThread {
  id: string;
  /** Question ids and follow-up ids in the order a user asks them; a follow-up comes right after its first. */
  turns: string[];
}

export interface QuestionSet {
  questions: RealQuestion[];
  docs: Record<string, RealDoc>;
  followUps: FollowUp[];
  threads: MixedThread[];
}

// import.meta.dirname, not __dirname: the benches run this file as an ES module under tsx.
const FIXTURES = join(import.meta.dirname, '../fixtures/real');

let cached: QuestionSet | undefined;

/** The three files of the set, read once. */
export function questionSet(): QuestionSet {
  if (cached) return cached;
  const read = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
  const { threads, followUps } = read('threads.json') as Pick<QuestionSet, 'threads' | 'followUps'>;
  cached = {
    questions: (read('questions.json') as { questions: RealQuestion[] }).questions,
    docs: (read('docs.json') as { docs: Record<string, RealDoc> }).docs,
    followUps,
    threads,
  };
  return cached;
}

/**
 * The matching form of a text: compatibility forms folded (the PDF ligature "ﬁ" becomes "fi"),
 * curly quotes and dashes made plain, whitespace collapsed (hard line breaks of HTML and PDF
 * sources), case folded.
 */
export function normalise(text: string): string {
  return (
    text
      .normalize('NFKC')
      // Backticks are Markdown's code quotes in a model's answer ("the `for` loop"), not apostrophes.
      .replace(/`/g, '')
      .replace(/[\u2018\u2019\u201a\u201b\u2032\u00b4]/g, "'")
      .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
      .replace(/[\u2010-\u2015\u2212]/g, '-')
      .replace(/\s+/g, ' ')
      .trim()
      .toLowerCase()
  );
}

const WORD = /[\p{L}\p{N}_]/u;
/** After a gold answer that ends in a letter or digit: a plural or third-person "s"/"es" at most, then no more of the word. */
const WORD_END = /^(?:e?s)?(?![\p{L}\p{N}_])/u;

/**
 * Whether a written answer (or passage) holds one of the gold answers, as whole words where the gold begins or ends
 * with one ("as" is not found in "has", "enum" not in "enumerate", "3" not in "30"; "data race" is found in "data
 * races"). An empty gold never matches.
 */
export function containsGold(text: string, answers: readonly string[]): boolean {
  const haystack = normalise(text);
  return answers.some((a) => goldIn(haystack, normalise(a)));
}

/**
 * Whether a written answer holds a gold answer outside the question's own words. Where a gold
 * stands in the question itself ("What file format is Cargo.toml written in?", gold "TOML"), an
 * answer that only repeats the question must not count: every word of the answer that is also a
 * word of the question ("cargo.toml", compared whole, its surrounding punctuation and a possessive
 * "'s" aside) is blanked before that gold is looked for. A gold the question does not hold is
 * looked for in the whole answer, question words and all ("cargo build" in "run cargo build").
 */
export function containsGoldBeyondQuestion(text: string, answers: readonly string[], question: string): boolean {
  const asked = normalise(question);
  const haystack = normalise(text);
  const questionWords = new Set(asked.split(' ').map(bareWord).filter(Boolean));
  const beyond = haystack
    .split(' ')
    .map((w) => (questionWords.has(bareWord(w)) ? '|' : w))
    .join(' ');
  return answers.some((a) => {
    const gold = normalise(a);
    return goldIn(goldIn(asked, gold) ? beyond : haystack, gold);
  });
}

/** A word as the question and the answer are compared: without the punctuation around it or a possessive "'s". */
function bareWord(w: string): string {
  return w.replace(/^[\s"'([{<,;:!?.]+|[\s"'()\]}>,;:!?.]+$/g, '').replace(/'s$/, '');
}

function goldIn(haystack: string, gold: string): boolean {
  if (!gold) return false;
  const wordStart = WORD.test(gold[0]!);
  const wordEnd = WORD.test(gold[gold.length - 1]!);
  for (let at = haystack.indexOf(gold); at >= 0; at = haystack.indexOf(gold, at + 1)) {
    if (wordStart && at > 0 && WORD.test(haystack[at - 1]!)) continue;
    if (wordEnd && !WORD_END.test(haystack.slice(at + gold.length, at + gold.length + 3))) continue;
    return true;
  }
  return false;
}

/** How many times the evidence occurs in a text, both normalised. */
export function evidenceCount(text: string, evidence: string): number {
  const needle = normalise(evidence);
  if (!needle) return 0;
  return normalise(text).split(needle).length - 1;
}

/** Whether a passage (or a whole document) holds the evidence. */
export function evidenceIn(text: string, evidence: string): boolean {
  return evidenceCount(text, evidence) > 0;
}

/** The existing paths a candidate pattern names, `~/` and `*` segments expanded, in sorted order. */
export function expandCandidate(pattern: string): string[] {
  const path = pattern.startsWith('~/') ? join(homedir(), pattern.slice(2)) : pattern;
  const parts = path.split('/');
  const star = parts.indexOf('*');
  if (star < 0) return existsSync(path) ? [path] : [];
  const parent = parts.slice(0, star).join('/') || '/';
  if (!existsSync(parent)) return [];
  return readdirSync(parent)
    .sort()
    .flatMap((name) => expandCandidate([...parts.slice(0, star), name, ...parts.slice(star + 1)].join('/')));
}

function docEntry(key: string, docs: Record<string, RealDoc>): RealDoc {
  const doc = docs[key];
  if (!doc) throw new Error(`"${key}" is not a document of test/fixtures/real/docs.json`);
  return doc;
}

/** Every copy of a document on this machine (rustup's toolchains and Debian's rust-doc for a chapter of the book), each file once. */
export function docCopies(key: string, docs = questionSet().docs): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const pattern of docEntry(key, docs).candidates)
    for (const path of expandCandidate(pattern)) {
      const real = realpathSync(path);
      if (seen.has(real)) continue;
      seen.add(real);
      out.push(path);
    }
  return out;
}

/** The first existing candidate of a document; a clear error naming the apt package when there is none. */
export function resolveDoc(key: string, docs = questionSet().docs): string {
  const found = docCopies(key, docs)[0];
  if (found) return found;
  const doc = docEntry(key, docs);
  throw new Error(
    `No copy of "${key}" on this machine (looked in ${doc.candidates.join(', ')}). ` +
      `Install it with \`apt-get install ${doc.package}\` (bash .ci/run does this on a fresh machine).`,
  );
}

/** A document's text as the app extracts it (src/library/parse: htmlparser2 for HTML, pdfjs for PDF). */
export async function documentText(path: string): Promise<string> {
  const parsed = await parseDocument(
    { name: basename(path), bytes: new Uint8Array(readFileSync(path)) },
    { pdf: loadPdfJsInNode },
  );
  return parsed.text;
}

/** The Debian packages to install so that every document of the set has a copy here (bash .ci/run installs them). */
export function missingDocPackages(docs = questionSet().docs): string[] {
  const missing = Object.keys(docs).filter((key) => docCopies(key, docs).length === 0);
  return [...new Set(missing.map((key) => docs[key]!.package))].sort();
}
