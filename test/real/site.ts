// The real-model tier's fixtures: the built app with the real models added as a model pack, and a
// real document set that no one on this project wrote (the Rust book as rustup or Debian ships it).
import { copyFileSync, cpSync, existsSync, linkSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { OUTPUT_DIR } from '../browser/harness';
import { realPath } from './available';
import { EMBEDDER_FILES } from '../../scripts/real-models/catalogue';
import { DEFAULT_EMBEDDER } from '../../src/evaluator/config';
import { EVALUATOR_PACK_MANIFEST, type EvaluatorPackManifest } from '../../src/evaluator/pack';

/** The GGUF files as the site serves them (URL paths relative to the site). */
export const SITE_GGUF = {
  smollm2: 'models/gguf/SmolLM2-135M-Instruct.Q4_1.gguf',
  gemma: 'models/gguf/gemma-3-270m-q4_k_m.gguf',
  qwen05: 'models/gguf/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf',
} as const;

function place(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  rmSync(to, { force: true });
  try {
    linkSync(from, to); // same disk: no copy of 100+ MB
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * Adds the model pack `real` (the real embedder only: with no critic in the pack, the page judges
 * with the critic the site ships, public/critic/) and the real GGUF files to a built site folder.
 */
export function addRealModels(site: string): void {
  const pack = join(site, 'models/real');
  const embedder = realPath('embedder');
  for (const f of EMBEDDER_FILES) place(join(embedder, f), join(pack, 'embedder', f));
  // The pack says whose weights it holds: what its embedder made counts as the hub model's at the plain address.
  const manifest: EvaluatorPackManifest = {
    format: 'selfrag-evaluator-pack',
    version: 1,
    models: [{ id: 'real/embedder', dtypes: ['fp32', 'q8'], mirrors: DEFAULT_EMBEDDER }],
  };
  writeFileSync(join(site, 'models', EVALUATOR_PACK_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  place(realPath('smollm2'), join(site, SITE_GGUF.smollm2));
  place(realPath('gemma'), join(site, SITE_GGUF.gemma));
  place(realPath('qwen05'), join(site, SITE_GGUF.qwen05));
}

/** A copy of a built site (dist/ or dist-test/) with the real models, under test-output/. */
export function realSite(built: string, name: string): string {
  const site = join(OUTPUT_DIR, name);
  rmSync(site, { recursive: true, force: true });
  cpSync(built, site, { recursive: true });
  addRealModels(site);
  return site;
}

/** The HTML Rust book: rustup's copy, else Debian's rust-doc package (which .ci/run installs when neither exists). */
export function rustBook(): string {
  const toolchains = join(homedir(), '.rustup/toolchains');
  const candidates = [
    ...(existsSync(toolchains)
      ? readdirSync(toolchains).map((t) => join(toolchains, t, 'share/doc/rust/html/book'))
      : []),
    '/usr/share/doc/rust-doc/html/book',
  ];
  const found = candidates.find((d) => existsSync(join(d, 'ch16-02-message-passing.html')));
  if (!found)
    throw new Error(
      `No HTML Rust book here (looked in ${candidates.join(', ')}). Install it with \`apt-get install rust-doc\`.`,
    );
  return found;
}

/** Labelled questions over the Rust book: each names the one chapter that answers it. */
export const BOOK_QUESTIONS: { question: string; chapter: string }[] = [
  {
    question: 'How can threads communicate by sending each other data over a channel?',
    chapter: 'ch16-02-message-passing.html',
  },
  {
    question: 'How do I pass an error up to the calling function instead of handling it myself?',
    chapter: 'ch09-02-recoverable-errors-with-result.html',
  },
  {
    question: 'How can reference counting create a cycle that leaks memory?',
    chapter: 'ch15-06-reference-cycles.html',
  },
  { question: 'How do I keep a growable list of values of the same type?', chapter: 'ch08-01-vectors.html' },
  {
    question: 'What are the rules for borrowing a value through a reference?',
    chapter: 'ch04-02-references-and-borrowing.html',
  },
  { question: 'How do I write a function that runs as an automated test?', chapter: 'ch11-01-writing-tests.html' },
  {
    question: 'How can an anonymous function capture variables from the scope around it?',
    chapter: 'ch13-01-closures.html',
  },
  {
    question: 'How does a program read the arguments it was started with?',
    chapter: 'ch12-01-accepting-command-line-arguments.html',
  },
  { question: 'How do I define behaviour that several different types can share?', chapter: 'ch10-02-traits.html' },
  { question: 'How do I store values that I look up by a key?', chapter: 'ch08-03-hash-maps.html' },
  {
    question: 'How does a program stop at once when something goes unrecoverably wrong?',
    chapter: 'ch09-01-unrecoverable-errors-with-panic.html',
  },
  {
    question: 'How can several threads change the same data safely with a lock?',
    chapter: 'ch16-03-shared-state.html',
  },
];

/** Chapters that answer none of the questions, so the library is not just the answers. */
const DISTRACTORS = [
  'ch03-02-data-types.html',
  'ch05-01-defining-structs.html',
  'ch06-02-match.html',
  'ch14-02-publishing-to-crates-io.html',
  'ch15-01-box.html',
  'ch01-03-hello-cargo.html',
];

/** The chapter files the real tier adds to the library. */
export function bookFiles(): string[] {
  const book = rustBook();
  return [...BOOK_QUESTIONS.map((q) => q.chapter), ...DISTRACTORS].map((f) => join(book, f));
}
