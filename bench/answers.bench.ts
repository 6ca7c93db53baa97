// Accuracy of the answers a reader gets, after Self-RAG's Table 2, on the project's labelled real
// question set (test/fixtures/real/): for no retrieval, plain RAG, Self-RAG always retrieving,
// Self-RAG adaptive (the default) and Self-CRAG, whether the written answer holds the gold answer,
// whether the passages it cites hold it, and whether anything shown is the prompt's own text.
//
// The generator is the app's WllamaGenerator, the code the page runs, sending its requests to a
// native llama-server (bench/answers/llama-server-engine.ts): wllama hands llama.cpp the same JSON,
// so the text is the model's, several times faster than in WebAssembly. Answer times come from the
// page instead (npm run bench -- answer-cost). Retrieval is the app's library in Node with the real
// all-MiniLM-L6-v2; the critic is the page's default, the site's own (bench/answers/shipped-critic.ts:
// ISREL, ISSUP, the re-rank of retrieval and CRAG's evaluator; docs/benchmarks-answer.md#who-critiques),
// or with ANSWERS_CRITIC=minilm MiniLM's plain cosine (bench/answers/minilm-critic.ts).
//
//   LLAMA_SERVER=/path/to/llama-server npm run bench -- answers
//   ANSWERS_MODEL=qwen15 ANSWERS_ROWS=plain,adaptive ANSWERS_SPLIT=test ANSWERS_LIMIT=60 ANSWERS_THREADS=2
//   ANSWERS_CRITIC=shipped|minilm
//   ANSWERS_RESUME=1 keeps the log's answers (same model) and asks only what it lacks
//   (a limit takes every n-th question of the split, so each kind of document keeps its share)
//
// Every answer is appended to test-output/answers/<model>.jsonl as it is written (a run can be
// stopped and its table printed from the log: npx tsx bench/answers/report.ts <log>).
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOW_TO_FETCH, QWEN_05B, QWEN_15B, realModelsDir } from '../scripts/real-models/catalogue';
import { WllamaGenerator } from '../src/generator/wllama/decoder';
import {
  containsGold,
  containsGoldBeyondQuestion,
  evidenceIn,
  questionSet,
  resolveDoc,
} from '../test/real/question-set';
import { OUTPUT_DIR } from '../test/browser/harness';
import { formTextIn } from '../test/real/form-text';
import { startNativeServer } from './answers/llama-server-engine';
import { minilmCritic } from './answers/minilm-critic';
import { BENCH_RETRIEVAL, setLibrary } from './answers/node-library';
import { shippedCritic } from './answers/shipped-critic';
import { DEFAULT_RETRIEVAL } from '../src/core/hybrid';
import { printReport, type AnswerRecord } from './answers/report';
import { answer, ROWS, type Row } from './answers/rows';
import { errorMessage } from '../src/core/errors';

const MODELS = { qwen05: QWEN_05B, qwen15: QWEN_15B } as const;

export async function run(): Promise<void> {
  const key = (process.env.ANSWERS_MODEL ?? 'qwen05') as keyof typeof MODELS;
  const model = MODELS[key];
  if (!model) throw new Error(`ANSWERS_MODEL must be one of ${Object.keys(MODELS).join(', ')}.`);
  const path = join(realModelsDir(), model.file);
  if (!existsSync(path)) {
    console.log(`SKIPPED: ${model.name} is not in ${realModelsDir()}. ${HOW_TO_FETCH} (Qwen 1.5B: add --all.)`);
    return;
  }
  const binary = process.env.LLAMA_SERVER;
  if (!binary || !existsSync(binary)) {
    console.log(
      'SKIPPED: set LLAMA_SERVER to a llama-server binary (bench/answers/README.md says how to build the pinned one).',
    );
    return;
  }
  const rows = (process.env.ANSWERS_ROWS?.split(',') ?? ROWS) as Row[];
  const split = process.env.ANSWERS_SPLIT ?? 'test';
  const threads = Number(process.env.ANSWERS_THREADS ?? 2);
  const set = questionSet();
  const inSplit = set.questions.filter((q) => split === 'all' || q.split === split);
  // A limit takes every n-th question, so each kind of document keeps its share.
  const limit = Math.min(inSplit.length, Number(process.env.ANSWERS_LIMIT ?? inSplit.length));
  const questions = Array.from({ length: limit }, (_, i) => inSplit[Math.floor((i * inSplit.length) / limit)]!);
  const which = process.env.ANSWERS_CRITIC ?? 'shipped';
  const shipped = which === 'shipped' ? shippedCritic() : undefined;
  // With the shipped critic, retrieval re-ranks its first stage with it, as the page's default does.
  const lib = await setLibrary(console.log, shipped ? { rerank: shipped.score } : {});
  const server = await startNativeServer({ model: path, threads, binary, log: console.log });
  const critic = shipped ?? minilmCritic((a, t) => lib.cosines(a, t));
  const generator = new WllamaGenerator(server.engine, { nProbs: 20 });
  const retriever = lib.retriever(shipped ? DEFAULT_RETRIEVAL : BENCH_RETRIEVAL);
  const out = join(OUTPUT_DIR, 'answers');
  mkdirSync(out, { recursive: true });
  const log = join(out, `${key}.jsonl`);
  // A whole split is hours on two cores: a stopped run resumes from its log instead of starting over.
  const records: AnswerRecord[] =
    process.env.ANSWERS_RESUME === '1' && existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l) as AnswerRecord | { error: string })
          .filter((r): r is AnswerRecord => !('error' in r) && r.model === model.name)
      : [];
  const done = new Set(records.map((r) => `${r.id} ${r.row}`));
  console.log(
    `${questions.length} ${split} questions × ${rows.join(', ')} on ${model.name} (${threads} threads); log ${log}`,
  );
  try {
    for (const q of questions) {
      const goldFile = resolveDoc(q.doc);
      const holds = (p: { text: string; docId: string }) =>
        evidenceIn(p.text, q.evidence) || (lib.fileOf.get(p.docId) === goldFile && containsGold(p.text, q.answers));
      for (const row of rows) {
        if (done.has(`${q.id} ${row}`)) continue;
        let a: Awaited<ReturnType<typeof answer>>;
        try {
          a = await answer(row, q.question, { generator, retriever, critic, score: critic.score });
        } catch (e) {
          // A failed answer is a result too (the page would show the error): logged, and the run goes on.
          const error = errorMessage(e);
          console.log(`${q.id} ${row}: ERROR ${error}`);
          appendFileSync(log, `${JSON.stringify({ model: model.name, threads, row, id: q.id, error })}\n`);
          continue;
        }
        const record: AnswerRecord = {
          model: model.name,
          threads,
          row,
          id: q.id,
          kind: q.kind,
          split: q.split,
          question: q.question,
          text: a.text,
          // Outside the question's own words: repeating "What file format is Cargo.toml …" is not "TOML".
          gold: !a.noAnswer && containsGoldBeyondQuestion(a.text, q.answers, q.question),
          cited: a.cited.length,
          citedHolding: a.cited.filter(holds).length,
          retrievedHolding: a.considered.some(holds),
          // The prompts' own pieces in what is shown, measured apart from the guard (test/real/form-text.ts).
          formText: !a.noAnswer && formTextIn(a.text).length > 0,
          noAnswer: a.noAnswer,
          withheld: a.withheld,
          candidates: a.candidates,
          ms: Math.round(a.ms),
          firstMs: a.firstMs === null ? null : Math.round(a.firstMs),
        };
        records.push(record);
        appendFileSync(log, `${JSON.stringify(record)}\n`);
        console.log(
          `${q.id} ${row}: ${record.gold ? 'GOLD' : '    '} ${a.noAnswer ? '(no answer)' : a.text.slice(0, 140)}`,
        );
      }
    }
  } finally {
    await server.close();
    await lib.close();
    await shipped?.dispose();
  }
  console.log(`critic: ${which === 'shipped' ? "the site's own (public/critic/)" : 'MiniLM cosine'}`);
  printReport(records.filter((r) => questions.some((q) => q.id === r.id) && rows.includes(r.row)));
}
