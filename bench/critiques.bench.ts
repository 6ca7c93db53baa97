// Who should critique: ISREL and ISSUP ROC AUC on labelled pairs from the real question set, for
// the critic the site ships (public/critic/, trained by training/critic/ on other documents), the
// prompted generator's judge turns (src/generator/prompts.ts) on real Qwen2.5-Coder models, the
// real all-MiniLM-L6-v2's cosine, and the tiny stand-ins the app's tests use. The default critic is
// chosen from it. Then re-ranking: the first stage's best 20 (the app's hybrid retrieval, real
// MiniLM q8) mixed with the shipped critic as the app mixes it, recall@3, on the split's questions
// and on the same questions asked away from their passage's words (test/fixtures/real/paraphrased.json).
//
//   ISREL pairs: a question with the passage that holds its answer (positive), and with the
//   passages hybrid retrieval ranked above or beside it that do not (negatives, at most two).
//   ISSUP pairs: a passage with its own evidence sentence (positive), and with the evidence sentence
//   of another question on the same document that this passage does not hold (negative).
//
//   npm run bench -- critiques                    the test split (all 137), the shipped critic, MiniLM, the tiny models
//   LLAMA_SERVER=… CRITIQUES_MODELS=qwen05,qwen15 also the generators' judge turns
//   CRITIQUES_SPLIT=dev|test  CRITIQUES_LIMIT=…  CRITIQUES_RERANK=0 (skip the re-rank part)
//   CRITIQUES_WEIGHTS=0.3,0.7  re-rank rows at other critic weights too (choose on dev)
//   CRITIQUES_DUMP=DIR   only write the split's pairs to DIR/<split>-{relevance,support,paraphrased}.jsonl,
//     in the --pairs format (for measuring a critic while it trains: training/critic/measure.py)
//   npm run bench -- critiques --pairs=my-pairs.jsonl   a site owner's own labelled pairs, one JSON a line:
//     {"question": "…", "passage": "…", "label": true}   relevance
//     {"premise": "…", "statement": "…", "label": "full"|"partial"|"none"|true|false}   support
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hybridRetrieve, mixRerank, RERANK_CANDIDATES, RERANK_WEIGHT } from '../src/core/hybrid';
import type { Passage, ScoredPassage } from '../src/core/ports';
import { REL_REPLY, SUP_REPLY, type Form } from '../src/generator/form';
import { relMessages, supMessages } from '../src/generator/prompts';
import { WllamaGenerator } from '../src/generator/wllama/decoder';
import { QWEN_05B, QWEN_15B, realModelsDir } from '../scripts/real-models/catalogue';
import { makeTinyModels, ROOT, tinyModelsStale, TINY_MODEL_IDS } from '../scripts/make-tiny-models';
import { createSupportModel } from '../workers/evaluator/nli';
import { createReranker } from '../workers/evaluator/reranker';
import { evidenceIn, questionSet, type RealQuestion } from '../test/real/question-set';
import { startNativeServer } from './answers/llama-server-engine';
import { minilmCritic } from './answers/minilm-critic';
import { setLibrary } from './answers/node-library';
import { shippedCritic } from './answers/shipped-critic';
import { rocAuc, withinQuestionAuc } from './critiques/auc';
import { createRealEmbedder } from './real/real-embedder';
import { firstAnswering, realLibrary } from './real-set/library';
import { realSearcher } from './real-set/searcher';

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

type Judge = (pairs: RelPair[], sups: SupPair[]) => Promise<{ rel: number[]; sup: number[] }>;

/** The test split's questions asked away from their passage's words, with the originals' answers and evidence. */
export function paraphrased(): RealQuestion[] {
  const byId = new Map(questionSet().questions.map((q) => [q.id, q]));
  const file = join(ROOT, 'test/fixtures/real/paraphrased.json');
  const { questions } = JSON.parse(readFileSync(file, 'utf8')) as { questions: { of: string; question: string }[] };
  return questions.map(({ of, question }) => {
    const q = byId.get(of);
    if (!q) throw new Error(`${file}: no question ${of} in questions.json`);
    return { ...q, id: `${of}-p`, question };
  });
}

/** ISREL pairs: the gold passage, and up to two passages retrieval put beside it that do not hold the evidence. */
async function relPairs(questions: RealQuestion[], all: Passage[], retrieve: (q: string) => Promise<ScoredPassage[]>) {
  const rels: RelPair[] = [];
  for (const q of questions) {
    const gold = all.find((p) => evidenceIn(p.text, q.evidence));
    if (!gold) continue;
    rels.push({ question: q.question, passage: gold, label: true });
    const found = await retrieve(q.question);
    for (const p of found.filter((p) => !evidenceIn(p.text, q.evidence) && p.id !== gold.id).slice(0, 2))
      rels.push({ question: q.question, passage: p, label: false });
  }
  return rels;
}

export async function run(): Promise<void> {
  const own = process.argv.find((a) => a.startsWith('--pairs='))?.slice('--pairs='.length);
  if (own) return ownPairs(own);
  const set = questionSet();
  const split = process.env.CRITIQUES_SPLIT ?? 'test';
  const limit = Number(process.env.CRITIQUES_LIMIT ?? Infinity);
  const questions = set.questions.filter((q) => q.split === split).slice(0, limit);
  const lib = await setLibrary(console.log);
  const retriever = lib.retriever();
  const all = await Promise.all(
    (await lib.library.list()).map(async (d) => (await lib.library.document(d.id))!.passages),
  ).then((xs) => xs.flat());

  const retrieve = (q: string) => retriever.retrieve(q, 6);
  const rels = await relPairs(questions, all, retrieve);
  const paraRels = split === 'test' ? await relPairs(paraphrased(), all, retrieve) : [];
  const sups: SupPair[] = [];
  for (const q of questions) {
    const gold = all.find((p) => evidenceIn(p.text, q.evidence));
    if (!gold) continue;
    sups.push({ question: q.question, passage: gold, statement: q.evidence, label: true });
    const other = set.questions.find((o) => o.doc === q.doc && o.id !== q.id && !evidenceIn(gold.text, o.evidence));
    if (other) sups.push({ question: q.question, passage: gold, statement: other.evidence, label: false });
  }
  console.log(
    `${rels.length} ISREL pairs (${rels.filter((r) => r.label).length} positive), ${sups.length} ISSUP pairs (${sups.filter((s) => s.label).length} positive), from ${questions.length} ${split} questions; ${paraRels.length} ISREL pairs from the paraphrased questions`,
  );

  const dump = process.env.CRITIQUES_DUMP;
  if (dump) {
    mkdirSync(dump, { recursive: true });
    const lines = (xs: object[]) => xs.map((x) => `${JSON.stringify(x)}\n`).join('');
    const rel = (xs: RelPair[]) =>
      lines(xs.map((r) => ({ question: r.question, passage: r.passage.text, label: r.label })));
    writeFileSync(join(dump, `${split}-relevance.jsonl`), rel(rels));
    if (paraRels.length) writeFileSync(join(dump, `${split}-paraphrased.jsonl`), rel(paraRels));
    writeFileSync(
      join(dump, `${split}-support.jsonl`),
      lines(sups.map((s) => ({ premise: s.passage.text, statement: s.statement, label: s.label }))),
    );
    console.log(`pairs written to ${dump}`);
    await lib.close();
    return;
  }

  const judges: [string, Judge][] = [];
  const critic = shippedCritic();
  judges.push([
    "the site's own critic (public/critic/, int8, trained by training/critic/ on documents the set never uses)",
    async (r, s) => ({
      rel: (await Promise.all(r.map((p) => critic.relevance(p.question, [p.passage])))).map((x) => x[0]!.relevant),
      sup: (await critic.support(s.map((p) => ({ passage: p.passage, text: p.statement })))).map(
        (x) => x.full + 0.5 * x.partial,
      ),
    }),
  ]);
  const minilm = minilmCritic((a, t) => lib.cosines(a, t));
  judges.push([
    'all-MiniLM-L6-v2 cosine (real; untrained for judging)',
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

  const auc = (scores: number[], pairs: { label: boolean }[]) =>
    rocAuc(
      scores,
      pairs.map((p) => p.label),
    ).toFixed(3);
  console.log(
    `\n| critic (${split} split) | ISREL ROC AUC | ISREL within a question | ISSUP ROC AUC | ISREL ROC AUC, paraphrased |\n|---|---:|---:|---:|---:|`,
  );
  for (const [name, judge] of judges) {
    const t0 = performance.now();
    const { rel, sup } = await judge([...rels, ...paraRels], sups);
    const para = paraRels.length ? auc(rel.slice(rels.length), paraRels) : '–';
    const within = withinQuestionAuc(rel.slice(0, rels.length), rels).toFixed(3);
    console.log(`| ${name} | ${auc(rel.slice(0, rels.length), rels)} | ${within} | ${auc(sup, sups)} | ${para} |`);
    console.log(
      `  (${((performance.now() - t0) / 1000).toFixed(0)} s for ${rels.length + paraRels.length + sups.length} pairs)`,
    );
  }
  await reranker.dispose();
  await nli.dispose();
  await lib.close();
  if (process.env.CRITIQUES_RERANK !== '0')
    await rerankRecall(critic, questions, split === 'test' ? paraphrased() : []);
  await critic.dispose();
}

/**
 * Re-ranking as the app does it: the first stage's best RERANK_CANDIDATES (words and meaning
 * fused, the real MiniLM q8 over the set's documents), mixed with the critic at RERANK_WEIGHT.
 */
async function rerankRecall(
  critic: ReturnType<typeof shippedCritic>,
  questions: RealQuestion[],
  para: RealQuestion[],
): Promise<void> {
  const embedder = createRealEmbedder('q8');
  const lib = await realLibrary();
  const s = await realSearcher(lib.passages, embedder, 'all-MiniLM-L6-v2-q8', console.log);
  const ports = s.hybridPorts();
  const recall = (r: number[], k: number) => r.filter((x) => x > 0 && x <= k).length / r.length;
  const weights = (process.env.CRITIQUES_WEIGHTS ?? '').split(',').filter(Boolean).map(Number);
  console.log(
    `\n| questions | in the best ${RERANK_CANDIDATES} | first stage recall@3 | re-ranked by the critic, recall@3 | recall@1 before → after |`,
  );
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, qs] of [
    ['labelled split', questions],
    ['paraphrased', para],
  ] as const) {
    if (!qs.length) continue;
    const before: number[] = [];
    const judged: { top: ScoredPassage[]; scores: number[] }[] = [];
    for (const q of qs) {
      const top = await hybridRetrieve(ports, q.question, RERANK_CANDIDATES, { search: 'both', rerank: false });
      before.push(firstAnswering(top, q));
      judged.push({
        top,
        scores: await critic.score(
          q.question,
          top.map((p) => p.text),
        ),
      });
    }
    // The page's weight first; CRITIQUES_WEIGHTS=0.3,0.7 adds rows (choose a weight on the dev split).
    for (const w of [RERANK_WEIGHT, ...weights.filter((x) => x !== RERANK_WEIGHT)]) {
      const after = judged.map(({ top, scores }, i) => firstAnswering(mixRerank(top, scores, w), qs[i]!));
      const label = w === RERANK_WEIGHT ? '' : ` (critic weight ${w})`;
      console.log(
        `| ${name} (${qs.length})${label} | ${recall(before, RERANK_CANDIDATES).toFixed(3)} | ${recall(before, 3).toFixed(3)} | ${recall(after, 3).toFixed(3)} | ${recall(before, 1).toFixed(3)} → ${recall(after, 1).toFixed(3)} |`,
      );
    }
  }
  await embedder.dispose();
}

/** A site owner's own labelled pairs, judged by the shipped critic. */
async function ownPairs(file: string): Promise<void> {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const rel: { question: string; passage: string; label: boolean }[] = [];
  const sup: { premise: string; statement: string; label: boolean }[] = [];
  for (const [i, line] of lines.entries()) {
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`${file}:${i + 1}: not JSON.`);
    }
    const yes = row.label === true || row.label === 1 || row.label === 'full' || row.label === 'relevant';
    const partial = row.label === 'partial';
    if (typeof row.question === 'string' && typeof row.passage === 'string')
      rel.push({ question: row.question, passage: row.passage, label: yes });
    else if (typeof row.premise === 'string' && typeof row.statement === 'string') {
      if (!partial) sup.push({ premise: row.premise, statement: row.statement, label: yes });
    } else
      throw new Error(
        `${file}:${i + 1}: needs "question" and "passage" (relevance) or "premise" and "statement" (support), and a "label".`,
      );
  }
  const critic = shippedCritic();
  const p = (text: string): Passage => ({ id: 'p', docId: 'd', title: '', text, index: 0 });
  const relScores = await Promise.all(rel.map(async (r) => (await critic.score(r.question, [r.passage]))[0]!));
  const supScores = (await critic.support(sup.map((s) => ({ passage: p(s.premise), text: s.statement })))).map(
    (x) => x.full + 0.5 * x.partial,
  );
  const fmt = (scores: number[], labels: boolean[]) =>
    labels.some((l) => l) && labels.some((l) => !l) ? rocAuc(scores, labels).toFixed(3) : 'n/a (needs both labels)';
  console.log(`${file}: ${rel.length} relevance pairs, ${sup.length} support pairs (partial ones left out of the AUC)`);
  console.log(
    `the site's own critic: relevance ROC AUC ${fmt(
      relScores,
      rel.map((r) => r.label),
    )}, support ROC AUC ${fmt(
      supScores,
      sup.map((s) => s.label),
    )}`,
  );
  await critic.dispose();
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
