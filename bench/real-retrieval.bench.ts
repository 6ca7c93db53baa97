// Retrieval on the labelled real question set (test/fixtures/real/: questions over the Rust book,
// Debian's PDF and HTML manuals, written by reading them) with the real all-MiniLM-L6-v2, each
// question asked in a fresh thread. A question is found when one of the top 3 passages holds a
// gold answer and its evidence (bench/real-set/library.ts); MRR over the top 10.
//   before           the HTML-to-text pass as it was (menus and pop-ups kept), title + text indexed
//   chrome dropped   the app's parser (html.ts), title + text indexed
//   + heading path   the app: title, heading path and text indexed (ingest.ts embeddingText)
// Search is the app's (word index, exact vectors, weighted fusion); no re-rank (no real
// cross-encoder is reachable here). Vectors are cached per model and text (vector-cache.ts).
//   npm run bench -- real-retrieval [--fp32]
import type { SearchMode } from '../src/core/fusion';
import type { Passage } from '../src/core/ports';
import type { ParsedDocument } from '../src/library/parse';
import { HOW_TO_FETCH } from '../scripts/real-models/catalogue';
import { parseHtml as legacyHtml } from './html-main/legacy-html';
import { createRealEmbedder, realEmbedderDir } from './real/real-embedder';
import { firstAnswering, realLibrary } from './real-set/library';
import { realSearcher, type Searcher } from './real-set/searcher';
import { questionSet, type RealQuestion } from '../test/real/question-set';

export interface Scores {
  n: number;
  recall3: number;
  mrr: number;
  /** Ids of the questions not found in the top 3. */
  missed: string[];
}

export function score(ranks: number[], ids: string[]): Scores {
  const n = ranks.length;
  return {
    n,
    recall3: ranks.filter((r) => r > 0 && r <= 3).length / n,
    mrr: ranks.reduce((s, r) => s + (r > 0 ? 1 / r : 0), 0) / n,
    missed: ids.filter((_, i) => !(ranks[i]! > 0 && ranks[i]! <= 3)),
  };
}

/** Ranks of the first answering passage for each question asked alone. */
export async function freshRanks(s: Searcher, questions: RealQuestion[], mode: SearchMode = 'both'): Promise<number[]> {
  const top = await s.search(
    questions.map((q) => q.question),
    10,
    mode,
  );
  return questions.map((q, i) => firstAnswering(top[i]!, q));
}

const legacyParsed = (source: string): ParsedDocument => {
  const r = legacyHtml(source);
  return {
    name: 'page.html',
    format: 'html',
    title: r.title ?? 'page',
    text: r.text,
    ...(r.headings?.length ? { layout: { headings: r.headings } } : {}),
  };
};
const titleAndText = (p: Passage) => `${p.title}\n${p.text}`;

const f3 = (x: number) => x.toFixed(3);

function row(label: string, questions: RealQuestion[], ranks: number[]): string {
  const part = (pred: (q: RealQuestion) => boolean) => {
    const idx = questions.map((q, i) => (pred(q) ? i : -1)).filter((i) => i >= 0);
    return score(
      idx.map((i) => ranks[i]!),
      idx.map((i) => questions[i]!.id),
    );
  };
  const all = part(() => true);
  const cols = [
    all,
    part((q) => q.kind === 'rust-book'),
    part((q) => q.kind === 'debian-pdf'),
    part((q) => q.kind === 'debian-html'),
    part((q) => q.split === 'dev'),
    part((q) => q.split === 'test'),
  ];
  return `| ${label} | ${cols.map((c) => f3(c.recall3)).join(' | ')} | ${f3(all.mrr)} |`;
}

export async function run(): Promise<void> {
  if (!realEmbedderDir()) {
    console.log(`!!! the real all-MiniLM-L6-v2 is not on this machine: nothing measured. ${HOW_TO_FETCH}`);
    return;
  }
  const dtype = process.argv.includes('--fp32') ? 'fp32' : 'q8';
  const embedder = createRealEmbedder(dtype);
  const model = `all-MiniLM-L6-v2-${dtype}`;
  const log = (s: string) => console.log(s);
  const { questions } = questionSet();
  const before = await realLibrary({ html: legacyParsed });
  const now = await realLibrary();
  console.log(
    `Library: ${Object.keys(questionSet().docs).length} documents, ${now.passages.length} passages (before: ${before.passages.length}); ${questions.length} questions. Model: real all-MiniLM-L6-v2 ${dtype}.`,
  );
  // The app's first: the other benches share its cached vectors.
  const app = await realSearcher(now.passages, embedder, model, log);
  const configs: Array<[string, Searcher, SearchMode]> = [
    [
      'before: menus kept, title + text',
      await realSearcher(before.passages, embedder, model, log, titleAndText),
      'both',
    ],
    ['chrome dropped, title + text', await realSearcher(now.passages, embedder, model, log, titleAndText), 'both'],
  ];
  configs.push(
    ['chrome dropped + heading path (the app), words only', app, 'words'],
    ['chrome dropped + heading path (the app), meaning only', app, 'meaning'],
    ['**chrome dropped + heading path (the app), both**', app, 'both'],
  );
  console.log('\n| fresh threads | recall@3 | Rust book | Debian PDF | Debian HTML | dev | test | MRR@10 |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  let appRanks: number[] = [];
  for (const [label, s, mode] of configs) {
    const ranks = await freshRanks(s, questions, mode);
    console.log(row(label, questions, ranks));
    if (s === app && mode === 'both') appRanks = ranks;
  }
  const missed = score(
    appRanks,
    questions.map((q) => q.id),
  ).missed;
  console.log(`\nNot in the app's top 3 (${missed.length}): ${missed.join(', ')}`);
  await embedder.dispose();
}
