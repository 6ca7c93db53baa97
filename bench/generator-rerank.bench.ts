// Can the loaded generator stand in for the cross-encoder no registry here holds? The first
// stage's best `depth` (the app's hybrid retrieval, real all-MiniLM-L6-v2 q8) judged by the
// generator in a judge turn (src/generator/prompts.ts: the app's ISREL question, "relevant", or
// "answers", which asks whether the passage answers the question: judgeMessages, what the app's
// 'generator' reranker asks), p(Yes) of the Yes/No slot read
// as the app reads it, mixed with the first stage's score as the app's re-rank mixes a
// cross-encoder's (core/hybrid.ts mixRerank) at three weights. Labelled real question set
// (test/fixtures/real/); recall@3 as real-retrieval counts it. Results: docs/retrieval.md.
//
// Native llama.cpp (bench/answers/llama-server-engine.ts) writes the judge's reply; speed is not
// measured here beyond the seconds a question there and the prompt tokens the judge reads, which
// is what a page pays.
//
//   LLAMA_SERVER=… npm run bench -- generator-rerank
//   GENRERANK_MODELS=qwen15,qwen05  GENRERANK_PROMPTS=relevant,answers  GENRERANK_SPLIT=dev|test|all
//   GENRERANK_DEPTH=10  GENRERANK_LIMIT=…
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { hybridRetrieve, JUDGE_RERANK_WEIGHT, mixRerank } from '../src/core/hybrid';
import type { Passage, ScoredPassage } from '../src/core/ports';
import { REL_REPLY, type Form } from '../src/generator/form';
import { judgeMessages, relMessages } from '../src/generator/prompts';
import { WllamaGenerator } from '../src/generator/wllama/decoder';
import { HOW_TO_FETCH, QWEN_05B, QWEN_15B, realModelsDir } from '../scripts/real-models/catalogue';
import { questionSet, type RealQuestion } from '../test/real/question-set';
import { startNativeServer } from './answers/llama-server-engine';
import { createRealEmbedder, realEmbedderDir } from './real/real-embedder';
import { firstAnswering, realLibrary } from './real-set/library';
import { realSearcher, type Searcher } from './real-set/searcher';

interface DecoderView {
  chat(req: { messages: unknown; form: Form; maxTokens: number }): Promise<unknown>;
  readSlot(form: Form, name: 'rel', reply: unknown): Promise<number[] | null>;
}

/** The judge's question: the app's ISREL turn, or the re-rank's own (what the 'generator' reranker asks). */
const PROMPTS = {
  relevant: (q: string, p: Passage) => relMessages(q, p),
  answers: (q: string, p: Passage) => judgeMessages(q, p),
} as const;
type PromptKey = keyof typeof PROMPTS;
const WEIGHTS = [JUDGE_RERANK_WEIGHT, 0.8, 1];

/** The first stage's best `depth` for each question (the app's hybrid retrieval without a re-rank). */
async function firstStage(s: Searcher, questions: RealQuestion[], depth: number): Promise<ScoredPassage[][]> {
  const ports = s.hybridPorts();
  const out: ScoredPassage[][] = [];
  for (const q of questions)
    out.push(await hybridRetrieve(ports, q.question, depth, { search: 'both', rerank: false }));
  return out;
}

/** The generator's judge, p(Yes) of its Yes/No slot, for every candidate of every question. */
async function judge(
  model: string,
  binary: string,
  prompt: PromptKey,
  questions: RealQuestion[],
  tops: ScoredPassage[][],
) {
  const server = await startNativeServer({ model, threads: 2, binary });
  try {
    const gen = new WllamaGenerator(server.engine, { nProbs: 20 });
    const d = (gen as unknown as { decoder: DecoderView }).decoder;
    const scores: number[][] = [];
    for (const [i, q] of questions.entries()) {
      // "answers" is what the app's 'generator' reranker asks: its own method, as the page calls it.
      if (prompt === 'answers') scores.push(await gen.judgePassages(q.question, tops[i]!));
      else {
        const row: number[] = [];
        for (const p of tops[i]!) {
          const reply = await d.chat({ messages: PROMPTS[prompt](q.question, p), form: REL_REPLY, maxTokens: 12 });
          const probs = await d.readSlot(REL_REPLY, 'rel', reply);
          row.push(probs ? probs[0]! / (probs[0]! + probs[1]! || 1) : 0.5);
        }
        scores.push(row);
      }
      process.stdout.write('.');
    }
    process.stdout.write('\n');
    return { scores, tokens: gen.cost().promptTokens / questions.length };
  } finally {
    await server.close();
  }
}

const recall3 = (r: number[]) => r.filter((x) => x > 0 && x <= 3).length / r.length;
const mrr = (r: number[]) => r.reduce((a, x) => a + (x > 0 ? 1 / x : 0), 0) / r.length;

export async function run(): Promise<void> {
  if (!realEmbedderDir()) {
    console.log(`!!! the real all-MiniLM-L6-v2 is not on this machine: nothing measured. ${HOW_TO_FETCH}`);
    return;
  }
  const split = process.env.GENRERANK_SPLIT ?? 'dev';
  const depth = Number(process.env.GENRERANK_DEPTH ?? 10);
  const limit = Number(process.env.GENRERANK_LIMIT ?? Infinity);
  const questions = questionSet()
    .questions.filter((q) => split === 'all' || q.split === split)
    .slice(0, limit);
  const embedder = createRealEmbedder('q8');
  const lib = await realLibrary();
  const s = await realSearcher(lib.passages, embedder, 'all-MiniLM-L6-v2-q8', console.log);
  const tops = await firstStage(s, questions, depth);
  const base = questions.map((q, i) => firstAnswering(tops[i]!, q));
  const rows: string[] = [
    `| first stage alone (words + meaning, the app without a cross-encoder) | – | ${recall3(base).toFixed(3)} | ${mrr(base).toFixed(3)} | – | – | 0 |`,
  ];
  const binary = process.env.LLAMA_SERVER;
  const wanted = (process.env.GENRERANK_MODELS ?? 'qwen15,qwen05').split(',');
  const prompts = (process.env.GENRERANK_PROMPTS ?? 'relevant,answers').split(',') as PromptKey[];
  for (const [key, m] of [
    ['qwen15', QWEN_15B],
    ['qwen05', QWEN_05B],
  ] as const) {
    if (!wanted.includes(key)) continue;
    const path = join(realModelsDir(), m.file);
    if (!binary || !existsSync(path)) {
      console.log(`SKIPPED ${m.name}: set LLAMA_SERVER and fetch it (npm run models -- --real --all).`);
      continue;
    }
    for (const prompt of prompts) {
      const t0 = performance.now();
      const { scores, tokens } = await judge(path, binary, prompt, questions, tops);
      console.log(
        `${m.name}, "${prompt}": ${((performance.now() - t0) / 1000 / questions.length).toFixed(1)} s a question on native llama.cpp, 2 threads`,
      );
      for (const w of WEIGHTS) {
        const r = questions.map((q, i) => firstAnswering(mixRerank(tops[i]!, scores[i]!, w), q));
        const fixed = r.filter((x, i) => x > 0 && x <= 3 && !(base[i]! > 0 && base[i]! <= 3)).length;
        const lost = r.filter((x, i) => !(x > 0 && x <= 3) && base[i]! > 0 && base[i]! <= 3).length;
        rows.push(
          `| ${m.name} Q4_K_M judge, "${prompt}", re-ranking the best ${depth} | ${w} | ${recall3(r).toFixed(3)} | ${mrr(r).toFixed(3)} | ${fixed} | ${lost} | ${Math.round(tokens)} |`,
        );
        console.log(rows[rows.length - 1]);
      }
    }
  }
  const inTop = base.filter((x) => x > 0 && x <= depth).length / base.length;
  console.log(
    `\n${questions.length} questions (${split} split); an answer in the first stage's best ${depth}: ${inTop.toFixed(3)} (the ceiling of this re-rank)\n`,
  );
  console.log(
    '| ranking | judge weight | recall@3 | MRR@10 | found that were not | lost that were found | judge prompt tokens a question |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(r);
  await embedder.dispose();
}
