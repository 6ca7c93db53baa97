// Who should critique: ISREL and ISSUP ROC AUC on labelled pairs from the real question set, for
// the prompted generator's judge turns (src/generator/prompts.ts) on real Qwen2.5-Coder models, the
// real all-MiniLM-L6-v2's cosine, and the tiny stand-ins the app's tests use for the cross-encoder
// and NLI model (no real one is in any registry here). The default critique source is chosen from it.
//
//   ISREL pairs: a question with the passage that holds its answer (positive), and with the
//   passages hybrid retrieval ranked above or beside it that do not (negatives, at most two).
//   ISSUP pairs: a passage with its own evidence sentence (positive), and with the evidence sentence
//   of another question on the same document that this passage does not hold (negative).
//
//   LLAMA_SERVER=… npm run bench -- critiques      CRITIQUES_MODELS=qwen05,qwen15 CRITIQUES_LIMIT=80
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Passage, ScoredPassage } from '../src/core/ports';
import { REL_REPLY, SUP_REPLY, type Form } from '../src/generator/form';
import { relMessages, supMessages } from '../src/generator/prompts';
import { WllamaGenerator } from '../src/generator/wllama/decoder';
import { QWEN_05B, QWEN_15B, realModelsDir } from '../scripts/real-models/catalogue';
import { makeTinyModels, ROOT, tinyModelsStale, TINY_MODEL_IDS } from '../scripts/make-tiny-models';
import { createSupportModel } from '../workers/evaluator/nli';
import { createReranker } from '../workers/evaluator/reranker';
import { evidenceIn, questionSet } from '../test/real/question-set';
import { startNativeServer } from './answers/llama-server-engine';
import { minilmCritic } from './answers/minilm-critic';
import { setLibrary } from './answers/node-library';

interface RelPair {
  question: string;
  passage: Passage;
  label: boolean;
}
interface SupPair {
  question: string;
  passage: Passage;
  statement: string;
  label: boolean;
}

/** ROC AUC: the chance a positive scores above a negative (ties count half). */
export function rocAuc(scores: number[], labels: boolean[]): number {
  const pos = scores.filter((_, i) => labels[i]);
  const neg = scores.filter((_, i) => !labels[i]);
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

type Judge = (pairs: RelPair[], sups: SupPair[]) => Promise<{ rel: number[]; sup: number[] }>;

export async function run(): Promise<void> {
  const set = questionSet();
  const limit = Number(process.env.CRITIQUES_LIMIT ?? 80);
  const questions = set.questions.filter((q) => q.split === 'test').slice(0, limit);
  const lib = await setLibrary(console.log);
  const retriever = lib.retriever();
  const all = await Promise.all(
    (await lib.library.list()).map(async (d) => (await lib.library.document(d.id))!.passages),
  ).then((xs) => xs.flat());

  const rels: RelPair[] = [];
  const sups: SupPair[] = [];
  for (const q of questions) {
    const gold = all.find((p) => evidenceIn(p.text, q.evidence));
    if (!gold) continue;
    rels.push({ question: q.question, passage: gold, label: true });
    const found: ScoredPassage[] = await retriever.retrieve(q.question, 6);
    for (const p of found.filter((p) => !evidenceIn(p.text, q.evidence) && p.id !== gold.id).slice(0, 2))
      rels.push({ question: q.question, passage: p, label: false });
    sups.push({ question: q.question, passage: gold, statement: q.evidence, label: true });
    const other = set.questions.find((o) => o.doc === q.doc && o.id !== q.id && !evidenceIn(gold.text, o.evidence));
    if (other) sups.push({ question: q.question, passage: gold, statement: other.evidence, label: false });
  }
  console.log(
    `${rels.length} ISREL pairs (${rels.filter((r) => r.label).length} positive), ${sups.length} ISSUP pairs (${sups.filter((s) => s.label).length} positive), from ${questions.length} test questions`,
  );

  const judges: [string, Judge][] = [];
  const minilm = minilmCritic((a, t) => lib.cosines(a, t));
  judges.push([
    "all-MiniLM-L6-v2 cosine (real; the benches' stand-in for the cross-encoder and NLI model)",
    async (r, s) => ({
      rel: (await Promise.all(r.map((p) => minilm.relevance(p.question, [p.passage])))).map((x) => x[0]!.relevant),
      sup: (await Promise.all(s.map((p) => minilm.support([{ passage: p.passage, text: p.statement }])))).map(
        (x) => x[0]!.full,
      ),
    }),
  ]);
  if (tinyModelsStale()) makeTinyModels();
  const tiny = { source: 'local' as const, localModelPath: join(ROOT, 'test/fixtures/models') };
  const reranker = createReranker({ ...tiny, model: { id: TINY_MODEL_IDS.reranker, dtype: 'fp32' } });
  const nli = createSupportModel({ ...tiny, model: { id: TINY_MODEL_IDS.nli, dtype: 'fp32' } });
  judges.push([
    "tiny word-overlap cross-encoder and NLI model (the app tests' stand-ins, not real models)",
    async (r, s) => ({
      rel: (await Promise.all(r.map((p) => reranker.score(p.question, [p.passage.text])))).map((x) => x[0]!),
      sup: (await nli.support(s.map((p) => ({ premise: p.passage.text, hypothesis: p.statement })))).map(
        (x) => x.full + 0.5 * x.partial,
      ),
    }),
  ]);
  const binary = process.env.LLAMA_SERVER;
  const wanted = (process.env.CRITIQUES_MODELS ?? 'qwen05,qwen15').split(',');
  for (const [key, model] of [
    ['qwen05', QWEN_05B],
    ['qwen15', QWEN_15B],
  ] as const) {
    const path = join(realModelsDir(), model.file);
    if (!wanted.includes(key)) continue;
    if (!binary || !existsSync(path)) {
      console.log(`SKIPPED ${model.name}: set LLAMA_SERVER and fetch it (npm run models -- --real --all).`);
      continue;
    }
    judges.push([`${model.name} Q4_K_M, prompted judge turns (llama.cpp, 2 threads)`, generatorJudge(path, binary)]);
  }

  console.log('\n| critic | ISREL ROC AUC | ISSUP ROC AUC |\n|---|---:|---:|');
  for (const [name, judge] of judges) {
    const { rel, sup } = await judge(rels, sups);
    console.log(
      `| ${name} | ${rocAuc(
        rel,
        rels.map((r) => r.label),
      ).toFixed(3)} | ${rocAuc(
        sup,
        sups.map((s) => s.label),
      ).toFixed(3)} |`,
    );
  }
  await reranker.dispose();
  await nli.dispose();
  await lib.close();
}

/** The generator's own judge turns, read as the app reads them (the decoder under WllamaGenerator). */
function generatorJudge(model: string, binary: string): Judge {
  return async (rels, sups) => {
    const server = await startNativeServer({ model, threads: 2, binary });
    try {
      const gen = new WllamaGenerator(server.engine, { nProbs: 20 });
      const d = (gen as unknown as { decoder: DecoderView }).decoder;
      const read = async (messages: unknown, form: Form, name: 'rel' | 'sup'): Promise<number> => {
        const reply = await d.chat({ messages, form, maxTokens: 12 });
        const p = await d.readSlot(form, name, reply);
        if (!p) return 0.5;
        return name === 'rel' ? p[0]! : p[0]! + 0.5 * p[1]!;
      };
      const rel: number[] = [];
      for (const r of rels) rel.push(await read(relMessages(r.question, r.passage), REL_REPLY, 'rel'));
      const sup: number[] = [];
      for (const s of sups) sup.push(await read(supMessages(s.question, s.passage, s.statement), SUP_REPLY, 'sup'));
      return { rel, sup };
    } finally {
      await server.close();
    }
  };
}

interface DecoderView {
  chat(req: { messages: unknown; form: Form; maxTokens: number }): Promise<unknown>;
  readSlot(form: Form, name: 'rel' | 'sup', reply: unknown): Promise<number[] | null>;
}
