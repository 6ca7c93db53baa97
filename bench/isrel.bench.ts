// Critiques a small model can be trusted with (issue 28): ISREL, the relevance critique,
// against labelled relevance on the sample library, as ROC AUC, for each critique source
// that runs here: the real MiniLM's cosine (fp32 and q8), the tiny cross-encoder (a
// stand-in: no real cross-encoder is in the registries), and a real GGUF's own prompted
// ISREL slot (SmolLM2-135M-Instruct through the app's llama.cpp generator, the app's prompt).
// Pairs: each sample question with its 10 nearest passages by MiniLM plus every passage that
// holds a gold answer; a passage is labelled relevant when it is from the question's document and holds a gold answer.
//   ISREL_QUESTIONS=11  ISREL_NEAR=10 (nearest passages per question)  ISREL_GGUF=smollm2|gemma|none
import { cpus, loadavg } from 'node:os';
import { embeddingText } from '../src/library/ingest';
import type { Passage } from '../src/core/ports';
import { REAL } from '../scripts/real-models/catalogue';
import {
  containsAnswer,
  cosineToProbability,
  loadModels,
  modelUrl,
  openPage,
  questions,
  type Models,
} from './answer-cost/setup';

export interface Pair {
  q: string;
  passage: Passage;
  relevant: boolean;
}

// Each sample question was written from one document (its id says which): a passage of another
// document that happens to hold a short answer ("one") is not relevant to it.
const DOCUMENT: Record<string, string> = {
  bees: 'honeybees.md',
  print: 'printing-press.md',
  rust: 'rust-ownership.md',
  bread: 'sourdough-bread.md',
  tides: 'tides.md',
};

export async function labelledPairs(models: Models, n: number, near = 10): Promise<Pair[]> {
  const pairs: Pair[] = [];
  for (const q of questions().slice(0, n)) {
    const doc = DOCUMENT[q.id.split('-')[0]!];
    const relevant = (p: Passage) => p.docId === doc && containsAnswer(p.text, q);
    const nearest = await models.retrieve(q.question, near);
    const ids = new Set(nearest.map((p) => p.id));
    const gold = models.passages.filter((p) => relevant(p) && !ids.has(p.id));
    for (const p of [...nearest, ...gold]) pairs.push({ q: q.question, passage: p, relevant: relevant(p) });
  }
  return pairs;
}

/** ROC AUC by the Mann–Whitney count (ties count half). */
export function auc(scores: number[], labels: boolean[]): number {
  let pos = 0;
  let neg = 0;
  let wins = 0;
  scores.forEach((s, i) => {
    if (!labels[i]) return;
    pos++;
    scores.forEach((t, j) => {
      if (labels[j]) return;
      wins += s > t ? 1 : s === t ? 0.5 : 0;
    });
  });
  labels.forEach((l) => !l && neg++);
  return pos && neg ? wins / (pos * neg) : NaN;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export async function run(): Promise<void> {
  const models = await loadModels();
  const pairs = await labelledPairs(
    models,
    Number(process.env.ISREL_QUESTIONS ?? '11'),
    Number(process.env.ISREL_NEAR ?? '10'),
  );
  const labels = pairs.map((p) => p.relevant);
  const rows: { source: string; scores: (number | null)[] }[] = [];
  const cos: number[] = [];
  for (const p of pairs) cos.push((await models.cosines(p.q, [embeddingText(p.passage)]))[0]!);
  rows.push({ source: 'real MiniLM cosine (q8)', scores: cos });
  const tiny: number[] = [];
  for (const p of pairs) tiny.push((await models.relevance(p.q, [embeddingText(p.passage)], 'tiny-reranker'))[0]!);
  rows.push({ source: 'tiny cross-encoder (stand-in, lexical overlap)', scores: tiny });
  const gguf = (process.env.ISREL_GGUF ?? 'smollm2') as 'smollm2' | 'gemma' | 'none';
  if (gguf !== 'none') {
    const page = await openPage(models, 'isrel-bench');
    try {
      await page.call('load', modelUrl(REAL[gguf]), 1);
      const own: (number | null)[] = [];
      for (const p of pairs) {
        own.push(await page.call<number | null>('selfIsrel', p.q, p.passage));
        console.log(
          `[isrel] ${own.length}/${pairs.length} ${p.relevant ? 'relevant' : 'irrelevant'} ${own.at(-1)?.toFixed(3)}`,
        );
      }
      rows.push({ source: `${REAL[gguf]} own prompted ISREL slot`, scores: own });
    } finally {
      await page.close();
    }
  }
  const pos = cos.filter((_, i) => labels[i]);
  const neg = cos.filter((_, i) => !labels[i]);
  console.log(
    `${pairs.length} (question, passage) pairs from ${new Set(pairs.map((p) => p.q)).size} sample questions, ${labels.filter(Boolean).length} labelled relevant (the passage holds a gold answer) · ${cpus().length}-core shared machine, load ${loadavg()[0]!.toFixed(1)}\n`,
  );
  console.log(
    '| critique source | ISREL ROC AUC, all pairs | ISREL ROC AUC within a question (mean) | mean on relevant | mean on irrelevant | unread |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    const read = r.scores.map((s, i) => [s, labels[i]] as const).filter((x): x is [number, boolean] => x[0] !== null);
    const a = auc(
      read.map((x) => x[0]),
      read.map((x) => x[1]),
    );
    // Within one question: how well the source orders that question's passages (what a beam step needs).
    const perQ = [...new Set(pairs.map((p) => p.q))]
      .map((q) => {
        const at = pairs.flatMap((p, i) => (p.q === q && r.scores[i] !== null ? [i] : []));
        return auc(
          at.map((i) => r.scores[i]!),
          at.map((i) => labels[i]!),
        );
      })
      .filter((x) => !Number.isNaN(x));
    console.log(
      `| ${r.source} | ${a.toFixed(3)} | ${mean(perQ).toFixed(3)} (${perQ.length} q) | ${mean(read.filter((x) => x[1]).map((x) => x[0])).toFixed(3)} | ${mean(read.filter((x) => !x[1]).map((x) => x[0])).toFixed(3)} | ${r.scores.length - read.length} |`,
    );
  }
  // The gate's threshold on the calibrated MiniLM probability: what each would skip and lose.
  console.log(
    '\nrelevance gate on the real MiniLM (cosine → logistic, setup.ts): per threshold, irrelevant pairs skipped and relevant pairs lost',
  );
  for (const t of [0.3, 0.5, 0.7]) {
    const p = cos.map(cosineToProbability);
    console.log(
      `  gate ${t}: skips ${neg.length ? ((p.filter((x, i) => !labels[i] && x < t).length / neg.length) * 100).toFixed(0) : '-'} % of irrelevant, loses ${pos.length ? ((p.filter((x, i) => labels[i] && x < t).length / pos.length) * 100).toFixed(0) : '-'} % of relevant`,
    );
  }
}
