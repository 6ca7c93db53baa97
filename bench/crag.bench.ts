// Self-CRAG against Self-RAG on the shipped question set, with the tiny generated models in
// Node (embedder for retrieval, cross-encoder as CRAG's evaluator, NLI for RAGAS) and a
// generator that quotes the passage sentence sharing most words with the question. Baseline:
// the same decode without the corrector, timed in the same run. Prints accuracy (gold
// contained), CRAG's actions, strips kept, the corrector's extra model calls, and RAGAS cost.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chunkText } from '../src/core/chunk';
import type { CragSettings } from '../src/core/crag/settings';
import { PAPER_DECODE_SETTINGS, DEFAULT_RANK_SETTINGS } from '../src/core/defaults';
import type { Generator, Retriever, ScoredPassage, Writer } from '../src/core/ports';
import { CONFIGS, type ConfigId } from '../src/eval-runner/configurations';
import { parseQuestionSet } from '../src/eval-runner/question-set';
import { runEvaluation, type EvalPorts } from '../src/eval-runner/run';
import { summarise } from '../src/eval-runner/summary';
import { createEmbedder } from '../workers/evaluator/embedder';
import { createSupportModel } from '../workers/evaluator/nli';
import { createReranker } from '../workers/evaluator/reranker';
import { ROOT, TINY_MODEL_IDS, makeTinyModels, tinyModelsStale } from '../scripts/make-tiny-models';

const words = (s: string) => new Set((s.toLowerCase().match(/\w+/g) ?? []).filter((w) => w.length > 3));
const shared = (a: string, b: string) => [...words(a)].filter((w) => words(b).has(w)).length;

function quotingGenerator(): Generator & { calls: number } {
  const g = {
    calls: 0,
    async decideRetrieval() {
      g.calls++;
      return { retrieval: 0.8, noRetrieval: 0.2 };
    },
    async generateSegments(reqs: Parameters<Generator['generateSegments']>[0]) {
      g.calls++;
      return reqs.map((r) => {
        const sentences = r.passage
          ? (r.passage.text.match(/[^.!?\n]+[.!?]/g) ?? [r.passage.text])
          : ['I do not know.'];
        const text = sentences.reduce((a, s) => (shared(r.question, s) > shared(r.question, a) ? s : a)).trim();
        const rel = r.passage ? Math.min(1, shared(r.question, r.passage.text) / 3) : 0;
        return {
          text,
          ...(r.passage
            ? {
                rel: { relevant: 0.05 + 0.9 * rel, irrelevant: 0.95 - 0.9 * rel },
                sup: { full: 0.8, partial: 0.1, none: 0.1 },
              }
            : {}),
          use: [0.1, 0.1, 0.2, 0.3, 0.3] as [number, number, number, number, number],
          tokenCount: text.split(/\s+/).length,
          done: true,
        };
      });
    },
  };
  return g;
}

/** Keyword rewrite that drops short and question words, like the paper's few-shot examples. */
const writer: Writer & { calls: number } = {
  calls: 0,
  async write(prompt) {
    writer.calls++;
    const last = prompt.trim().split('\n').pop() ?? '';
    const q = /question: (.*?) query:$/.exec(last)?.[1];
    if (q) return [...words(q)].join(', ');
    return last.replace(/^\w+: /, '');
  },
};

export async function run(): Promise<void> {
  if (tinyModelsStale()) makeTinyModels();
  const runtime = { source: 'local' as const, localModelPath: join(ROOT, 'test/fixtures/models') };
  const embedder = createEmbedder({ ...runtime, model: { id: TINY_MODEL_IDS.embedder, dtype: 'fp32' } });
  const reranker = createReranker({ ...runtime, model: { id: TINY_MODEL_IDS.reranker, dtype: 'fp32' } });
  const nli = createSupportModel({ ...runtime, model: { id: TINY_MODEL_IDS.nli, dtype: 'fp32' } });
  let rerankCalls = 0;

  const manifest = JSON.parse(readFileSync(join(ROOT, 'public/sample/manifest.json'), 'utf8')) as {
    documents: { file: string; title: string }[];
  };
  const passages = manifest.documents.flatMap((d) =>
    chunkText({ docId: d.file, title: d.title, text: readFileSync(join(ROOT, 'public/sample', d.file), 'utf8') }),
  );
  const vectors = await embedder.embed(passages.map((p) => `${p.title}\n${p.text}`));
  const retriever: Retriever = {
    async retrieve(query, k) {
      const [q] = await embedder.embed([query]);
      return passages
        .map(
          (p, i): ScoredPassage => ({
            ...p,
            score: (vectors[i] ?? new Float32Array()).reduce((s, x, j) => s + x * (q?.[j] ?? 0), 0),
          }),
        )
        .sort((a, b) => b.score - a.score)
        .slice(0, k);
    },
  };
  const { items } = parseQuestionSet(readFileSync(join(ROOT, 'public/eval/sample-questions.jsonl'), 'utf8'));
  const generator = quotingGenerator();
  const ports: EvalPorts = {
    generator,
    writer,
    retriever,
    embedder,
    critic: {
      relevance: async () => [],
      support: (pairs) => nli.support(pairs.map((p) => ({ premise: p.passage.text, hypothesis: p.text }))),
    },
    relevanceScores: async (q, texts) => {
      rerankCalls++;
      return reranker.score(q, texts);
    },
    models: { generator: 'quoting double', writer: 'keyword double', embedder: embedder.model, nli: nli.model },
  };
  const decodeSettings = { ...PAPER_DECODE_SETTINGS, mode: 'always' as const, maxDepth: 1, passagesPerStep: 3 };
  const configs: ConfigId[] = ['self-rag', 'self-crag'];
  await runEvaluation(items.slice(0, 2), ports, {
    configs,
    decode: decodeSettings,
    rank: DEFAULT_RANK_SETTINGS,
    ragas: false,
  }); // warm-up

  const rows: string[] = [];
  const time: Record<string, number> = {};
  // The last row is Self-CRAG with the reference code's strip selection (top-k over all passages' strips).
  const variants: { config: ConfigId; key: string; label?: string; crag?: Partial<CragSettings> }[] = [
    ...configs.map((config) => ({ config, key: config })),
    {
      config: 'self-crag',
      key: 'self-crag-pooled',
      label: 'Self-CRAG, strips pooled across passages',
      crag: { stripPool: 'across-passages' },
    },
  ];
  for (const { config, key, label, crag } of variants) {
    const before = { g: generator.calls, w: writer.calls, r: rerankCalls };
    const t0 = performance.now();
    const records = await runEvaluation(items, ports, {
      configs: [config],
      decode: decodeSettings,
      rank: DEFAULT_RANK_SETTINGS,
      ragas: false,
      ...(crag ? { crag } : {}),
    });
    time[key] = performance.now() - t0;
    const [s] = summarise(records, [config]);
    const actions = records.flatMap((r) => r.actions);
    const strips = records.flatMap((r) => r.corrections.flatMap((c) => c.strips ?? []));
    const count = (a: string) => actions.filter((x) => x === a).length;
    rows.push(
      [
        label ?? CONFIGS.find((c) => c.id === config)?.label ?? config,
        `accuracy ${s?.accuracy?.toFixed(2)}`,
        `citation support ${s?.citationSupport?.toFixed(2) ?? 'n/a'}`,
        `time ×${(time[key]! / time['self-rag']!).toFixed(2)}`,
        `generator calls ${generator.calls - before.g}, writer ${writer.calls - before.w}, evaluator ${rerankCalls - before.r}`,
        actions.length
          ? `actions correct ${count('correct')} / ambiguous ${count('ambiguous')} / incorrect ${count('incorrect')}`
          : '',
        strips.length ? `strips kept ${strips.filter((x) => x.kept).length}/${strips.length}` : '',
      ]
        .filter(Boolean)
        .join(' · '),
    );
  }
  const t0 = performance.now();
  await runEvaluation(items, ports, {
    configs: ['self-rag'],
    decode: decodeSettings,
    rank: DEFAULT_RANK_SETTINGS,
    ragas: true,
    n: 3,
  });
  const withRagas = performance.now() - t0;
  console.log(`${items.length} questions, always retrieve, ${decodeSettings.passagesPerStep} passages, tiny models`);
  for (const r of rows) console.log(`  ${r}`);
  console.log(`  RAGAS after each answer: time ×${(withRagas / time['self-rag']!).toFixed(2)} of the answers alone`);
}
