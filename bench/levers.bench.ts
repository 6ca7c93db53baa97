// What each answer-cost lever costs in accuracy (issue 28), on the labelled sample questions:
// the real MiniLM (q8) retrieves from the sample library and is the evaluator's relevance
// model (calibrated cosine, bench/answer-cost/setup.ts); the generator is a deterministic
// double that quotes the passage sentence sharing most words with the question (grading its
// own relevance by word overlap, as a weak prompted model might), so only the search differs
// between rows. Per row: answers holding a gold answer, answers citing a passage of the
// question's document that holds one, and candidates written per question (each one a
// constrained decode on a real engine) as the cost, with the paper's search as the baseline.
import { decode } from '../src/core/decode';
import { DEFAULT_DECODE_SETTINGS, DEFAULT_RANK_SETTINGS, PAPER_DECODE_SETTINGS } from '../src/core/defaults';
import type { Critic, GeneratedSegment, Generator, SegmentRequest } from '../src/core/ports';
import type { DecodeSettings } from '../src/core/types';
import { embeddingText } from '../src/library/ingest';
import { containsAnswer, loadModels, questions } from './answer-cost/setup';

const words = (s: string) => new Set((s.toLowerCase().match(/\w+/g) ?? []).filter((w) => w.length > 3));
const shared = (a: string, b: string) => [...words(a)].filter((w) => words(b).has(w)).length;

function quotingGenerator(): Generator {
  return {
    native: false,
    async decideRetrieval() {
      return { retrieval: 0.8, noRetrieval: 0.2 };
    },
    async generateSegments(reqs: SegmentRequest[]): Promise<GeneratedSegment[]> {
      return reqs.map((r) => {
        const used = new Set(r.previous);
        const sentences = (r.passage?.text.match(/[^.!?\n]+[.!?]/g) ?? ['I do not know.'])
          .map((s) => s.trim())
          .filter((s) => !used.has(s));
        const text = sentences.length
          ? sentences.reduce((a, s) => (shared(r.question, s) > shared(r.question, a) ? s : a))
          : 'Nothing more.';
        const overlap = shared(r.question, text);
        const rel = r.passage ? Math.min(1, shared(r.question, r.passage.text) / 4) : 0;
        return {
          text,
          ...(r.passage
            ? {
                rel: { relevant: 0.5 + 0.4 * rel, irrelevant: 0.5 - 0.4 * rel },
                sup: { full: 0.8, partial: 0.1, none: 0.1 },
              }
            : {}),
          use: [0.1, 0.1, 0.2, 0.3, 0.3] as [number, number, number, number, number],
          tokenCount: text.split(/\s+/).length,
          // The answer is complete once a sentence shares two words with the question.
          done: overlap >= 2 || r.previous.length >= 2,
        };
      });
    },
  };
}

const DOCUMENT: Record<string, string> = {
  bees: 'honeybees.md',
  print: 'printing-press.md',
  rust: 'rust-ownership.md',
  bread: 'sourdough-bread.md',
  tides: 'tides.md',
};

export async function run(): Promise<void> {
  const models = await loadModels();
  const critic: Critic = {
    async relevance(q, passages) {
      const p = await models.relevance(q, passages.map(embeddingText), 'minilm');
      return p.map((r) => ({ relevant: r, irrelevant: 1 - r }));
    },
    async support(pairs) {
      return pairs.map(() => ({ full: 1 / 3, partial: 1 / 3, none: 1 / 3 }));
    },
  };
  const retriever = { retrieve: (q: string, k: number) => models.retrieve(q, k) };
  const rows: [string, DecodeSettings][] = [
    ["the paper's search (before)", { ...PAPER_DECODE_SETTINGS }],
    ['+ critique source auto (evaluator grades)', { ...PAPER_DECODE_SETTINGS, critiqueSource: 'auto' }],
    ['+ relevance gate 0.5 only', { ...PAPER_DECODE_SETTINGS, relevanceGate: 0.5 }],
    ['+ relevance gate 0.7 only', { ...PAPER_DECODE_SETTINGS, relevanceGate: 0.7 }],
    ['+ stop at the first answer only', { ...PAPER_DECODE_SETTINGS, stopAtFirstAnswer: true }],
    ['beam width 1 only', { ...PAPER_DECODE_SETTINGS, beamWidth: 1 }],
    ['max 3 segments only', { ...PAPER_DECODE_SETTINGS, maxDepth: 3 }],
    [
      'auto + gate 0.5 + stop, beam 2, 6 segments',
      { ...PAPER_DECODE_SETTINGS, critiqueSource: 'auto', relevanceGate: 0.5, stopAtFirstAnswer: true },
    ],
    [
      'auto + gate 0.5 + stop, beam 1, 6 segments',
      { ...PAPER_DECODE_SETTINGS, critiqueSource: 'auto', relevanceGate: 0.5, stopAtFirstAnswer: true, beamWidth: 1 },
    ],
    [
      'auto + gate 0.5 + stop, beam 1, 2 segments',
      {
        ...PAPER_DECODE_SETTINGS,
        critiqueSource: 'auto',
        relevanceGate: 0.5,
        stopAtFirstAnswer: true,
        beamWidth: 1,
        maxDepth: 2,
      },
    ],
    ['defaults (after)', { ...DEFAULT_DECODE_SETTINGS }],
  ];
  const qs = questions();
  console.log(
    `${qs.length} sample questions, sample library, real MiniLM q8 retrieval and relevance; quoting generator double (bench/levers.bench.ts)\n`,
  );
  console.log('| search | gold in answer | cites a gold passage | candidates/q | × before |');
  console.log('|---|---|---|---|---|');
  let base = 0;
  for (const [label, settings] of rows) {
    let gold = 0;
    let cited = 0;
    let candidates = 0;
    for (const q of qs) {
      const r = await decode(
        q.question,
        { generator: quotingGenerator(), retriever, critic },
        settings,
        DEFAULT_RANK_SETTINGS,
      );
      const best = r.ranking.best.map((b) => b.candidate);
      if (containsAnswer(best.map((c) => c.text).join(' '), q)) gold++;
      if (
        best.some(
          (c) => c.passage && c.passage.docId === DOCUMENT[q.id.split('-')[0]!] && containsAnswer(c.passage.text, q),
        )
      )
        cited++;
      candidates += r.tree.candidates.length;
    }
    base ||= candidates;
    console.log(
      `| ${label} | ${gold}/${qs.length} | ${cited}/${qs.length} | ${(candidates / qs.length).toFixed(1)} | ${(candidates / base).toFixed(2)} |`,
    );
  }
}
