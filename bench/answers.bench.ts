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
//   ANSWERS_TAG=dev-x writes test-output/answers/<model>-dev-x.jsonl (a run kept apart from the test split's log)
//   (a limit takes every n-th question of the split, so each kind of document keeps its share)
//
// Every answer is appended to test-output/answers/<model>.jsonl as it is written (a run can be
// stopped and its table printed from the log: npx tsx bench/answers/report.ts <log>).
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  containsGold,
  containsGoldBeyondQuestion,
  evidenceIn,
  questionSet,
  resolveDoc,
} from '../test/real/question-set';
import { OUTPUT_DIR } from '../test/browser/harness';
import { formTextIn } from '../test/real/form-text';
import { printReport, type AnswerRecord } from './answers/report';
import { answer, ROWS, type Row } from './answers/rows';
import { openAnswerSession } from './answers/session';
import { errorMessage } from '../src/core/errors';

export async function run(): Promise<void> {
  const session = await openAnswerSession();
  if (!session) return;
  const { lib, threads, key } = session;
  const model = { name: session.modelName };
  const rows = (process.env.ANSWERS_ROWS?.split(',') ?? ROWS) as Row[];
  const split = process.env.ANSWERS_SPLIT ?? 'test';
  const set = questionSet();
  const inSplit = set.questions.filter((q) => split === 'all' || q.split === split);
  // A limit takes every n-th question, so each kind of document keeps its share.
  const limit = Math.min(inSplit.length, Number(process.env.ANSWERS_LIMIT ?? inSplit.length));
  const questions = Array.from({ length: limit }, (_, i) => inSplit[Math.floor((i * inSplit.length) / limit)]!);
  const out = join(OUTPUT_DIR, 'answers');
  mkdirSync(out, { recursive: true });
  // A tag keeps a run apart (another split, a prompt tried on dev) from the test split's log.
  const tag = process.env.ANSWERS_TAG ? `-${process.env.ANSWERS_TAG.replace(/[^\w.-]/g, '_')}` : '';
  const log = join(out, `${key}${tag}.jsonl`);
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
          a = await answer(row, q.question, session);
        } catch (e) {
          // A failed answer is a result too (the page would show the error): logged, and the run goes on.
          // The page's wording hides the cause (a dropped connection to llama-server reads "could
          // not be downloaded"), so the detail is logged beside it.
          const detail = (e as { detail?: string }).detail;
          const error = detail ? `${errorMessage(e)} (${detail})` : errorMessage(e);
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
    await session.close();
  }
  console.log(`critic: ${session.criticName}`);
  printReport(records.filter((r) => questions.some((q) => q.id === r.id) && rows.includes(r.row)));
}
