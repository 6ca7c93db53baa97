// Follow-up questions: (1) how well a follow-up retrieves when searched literally, joined
// with the earlier question (evidence-only mode, and the fallback when a rewrite is not
// usable), or as a standalone rewrite; (2) what a follow-up costs in tokens against the same
// question asked standalone (the rewrite call plus the history in every generator call),
// counted with the default models' real tokenizers; (3) how many turns fit in the history
// budget of the default models' context windows before the oldest are dropped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DECODE_RESERVE_TOKENS,
  fitHistory,
  formatHistoryTurn,
  historyBudget,
  historyText,
  joinedQuery,
  MAX_HISTORY_TURNS,
  questionWithHistory,
  rewritePrompt,
  cleanRewrite,
  newWords,
  type HistoryTurn,
} from '../src/core/conversation';
import { DEFAULT_DECODE_SETTINGS } from '../src/core/defaults';
import type { Passage } from '../src/core/ports';
import { CATALOGUE, DEFAULT_MODEL_ID } from '../src/generator/catalogue';
import { DEFAULT_GGUF_ID, GGUF_CATALOGUE } from '../src/generator/gguf-catalogue';
import { answerMessages, decisionMessages, USE_QUESTION } from '../src/generator/prompts';
import { embeddingText } from '../src/library/ingest';
import { ROOT } from '../scripts/make-tiny-models';
import { LexicalIndex } from '../src/library/lexical/lexical-index';
import { loadVocab, type Family } from '../test/doubles/token-vocab';
import { labelledSet, type LabelledQuestion } from './retrieval/labelled-set';
import { rewriteFollowUp } from '../test/doubles/default-script';

const f3 = (x: number) => x.toFixed(3);

/** A follow-up that leans on the first question (a pronoun, no subject of its own), by the kind of question. */
function followUpOf(q: LabelledQuestion, i: number): string {
  if (q.kind === 'identifier') return i % 2 ? 'How do I fix that?' : 'What should I do when it happens?';
  if (q.kind === 'name') return i % 2 ? 'What did they do there?' : 'When did that happen?';
  return ['Can you tell me more about that?', 'Why is that?', 'What else should I know about it?'][i % 3]!;
}

function recallAt3(ranked: string[][], gold: string[]): number {
  return ranked.filter((r, i) => r.slice(0, 3).includes(gold[i]!)).length / ranked.length;
}

function retrieval(): void {
  const { passages, questions } = labelledSet();
  const lexical = new LexicalIndex();
  lexical.add(passages.map((p) => ({ id: p.id, text: embeddingText(p) })));
  const search = (q: string) => lexical.search(q, 10).map((h) => h.id);
  const gold = questions.map((q) => q.gold);
  const follow = questions.map(followUpOf);
  const rows: [string, string[]][] = [
    ['the first question itself (reference)', questions.map((q) => q.question)],
    ['literal follow-up', follow],
    [
      'follow-up + earlier question (evidence-only / fallback)',
      questions.map((q, i) => joinedQuery([q.question], follow[i]!)),
    ],
    [
      "mechanical rewrite: last pronoun → first content word of the first question (the e2e engine double's; no LLM)",
      questions.map((q, i) =>
        rewriteFollowUp(rewritePrompt([{ question: q.question, answer: '' }], follow[i]!)!.prompt),
      ),
    ],
    [
      'mechanical rewrite + earlier question',
      questions.map((q, i) =>
        joinedQuery(
          [q.question],
          rewriteFollowUp(rewritePrompt([{ question: q.question, answer: '' }], follow[i]!)!.prompt),
        ),
      ),
    ],
    ['ideal rewrite (the first question restated; an upper bound, no LLM)', questions.map((q) => q.question)],
  ];
  console.log(
    `\nFollow-up pairs from the labelled retrieval set: ${questions.length} pairs (first question → a follow-up about "it/that/they"), BM25 words index, recall@3 of the first question's gold passage.`,
  );
  console.log('| follow-up searched as | recall@3 |');
  console.log('|---|---:|');
  for (const [name, qs] of rows) console.log(`| ${name} | ${f3(recallAt3(qs.map(search), gold))} |`);
  console.log(
    "No real LLM runs here: a small model's rewrite lands between the literal and the ideal rows; when its output is unusable the page falls back to the joined row.",
  );
}

/**
 * How many follow-ups are searched with their rewrite unchanged (no word the follow-up lacked),
 * by the page's rule before and after issue 31, for two rewriters: the e2e engine double's
 * mechanical one, and one that hands every follow-up back (what small models often do).
 */
function unchangedRewrites(): void {
  const { passages, questions } = labelledSet();
  const lexical = new LexicalIndex();
  lexical.add(passages.map((p) => ({ id: p.id, text: embeddingText(p) })));
  const search = (q: string) => lexical.search(q, 10).map((h) => h.id);
  const gold = questions.map((q) => q.gold);
  const follow = questions.map(followUpOf);
  const rewriters: [string, (first: string, followUp: string) => string][] = [
    [
      'mechanical (e2e engine double)',
      (first, f) => rewriteFollowUp(rewritePrompt([{ question: first, answer: '' }], f)!.prompt),
    ],
    ['hands the follow-up back', (_first, f) => f],
  ];
  const unchanged = 'the rewrite added nothing to the follow-up';
  console.log(
    `\nFollow-ups searched with an unchanged rewrite (${questions.length} labelled pairs, BM25 recall@3 of the first question's gold passage):`,
  );
  console.log('| rewriter | rule | unchanged rewrite searched | recall@3 |');
  console.log('|---|---|---:|---:|');
  for (const [name, rewrite] of rewriters) {
    for (const rule of [
      'before (any usable rewrite)',
      'after (unchanged → joined with the earlier question)',
    ] as const) {
      const queries = questions.map((q, i) => {
        const cleaned = cleanRewrite(rewrite(q.question, follow[i]!), follow[i]!);
        // Before issue 31 a rewrite was used whenever it was usable, unchanged or not.
        const used = cleaned.usedRewrite || (rule.startsWith('before') && cleaned.reason === unchanged);
        const text = cleaned.usedRewrite ? cleaned.query : rewrite(q.question, follow[i]!).trim();
        return used ? text : joinedQuery([q.question], follow[i]!);
      });
      const same = queries.filter((q, i) => newWords(q, follow[i]!).length === 0).length;
      console.log(`| ${name} | ${rule} | ${same} of ${queries.length} | ${f3(recallAt3(queries.map(search), gold))} |`);
    }
  }
}

const samplePassages = (): Passage[] => {
  const text = readFileSync(join(ROOT, 'public/sample/honeybees.md'), 'utf8').replace(/^#.*\n+/, '');
  const paras = text.split(/\n\n+/).filter((p) => p.trim());
  return paras.map((t, i) => ({
    id: `bees#${i}`,
    docId: 'bees',
    title: 'How Honeybee Colonies Work',
    text: t.trim(),
    index: i,
  }));
};

/**
 * Prompt and decoded tokens of one answer: `segments` steps, each a retrieval decision and
 * `passagesPerStep` candidates (the answer turn, then the utility question and its one-word reply).
 * Every turn is counted whole, as an engine without a prefix cache would prefill it.
 */
function answerCost(
  count: (system: string, user: string) => number,
  encode: (t: string) => number,
  question: string,
  passages: Passage[],
  answer: string[],
): { prompt: number; decoded: number } {
  let prompt = 0;
  let decoded = 0;
  for (let d = 0; d < answer.length; d++) {
    const previous = answer.slice(0, d);
    prompt += count('', decisionMessages(question, previous)[0]!.content);
    decoded += 2;
    for (let k = 0; k < DEFAULT_DECODE_SETTINGS.passagesPerStep; k++) {
      const [system, ...turns] = answerMessages(question, previous, passages[(d + k) % passages.length]!);
      const conversation = turns.map((m) => m.content).join('\n');
      prompt += count(system!.content, conversation);
      decoded += encode(answer[d]!) + 1;
      prompt += count(system!.content, `${conversation}\n${answer[d]}\n${USE_QUESTION}`);
      decoded += 2;
    }
  }
  return { prompt, decoded };
}

async function tokens(): Promise<void> {
  const passages = samplePassages();
  const q1 = 'How do bees make honey?';
  const a1 = [
    'Forager bees collect nectar from flowers and carry it back to the hive in their honey stomachs.',
    'House bees pass it mouth to mouth and fan it with their wings until most of the water has evaporated.',
    'They then seal the ripe honey in wax cells.',
  ];
  const q2 = 'How long does that take them?';
  const a2 = [
    'Turning nectar into honey takes the colony a few days of fanning before the cells are capped.',
    'A single bee makes only about a twelfth of a teaspoon of honey in its life.',
  ];
  const rewrite = 'How long does it take bees to turn nectar into honey?';
  const webllm = CATALOGUE.find((m) => m.id === DEFAULT_MODEL_ID)!;
  const wllama = GGUF_CATALOGUE.find((m) => m.id === DEFAULT_GGUF_ID)!;
  const engines: { name: string; family: Family; window: number }[] = [
    { name: `web-llm default (${webllm.id})`, family: 'qwen2.5', window: webllm.contextWindow },
    { name: `wllama default (${wllama.id})`, family: 'qwen2.5', window: wllama.contextWindow },
    {
      name: 'web-llm llama-3.2-1b',
      family: 'llama3',
      window: CATALOGUE.find((m) => m.id === 'llama-3.2-1b')!.contextWindow,
    },
  ];
  console.log(
    `\nCost of the follow-up "${q2}" after "${q1}" against the same question asked standalone: one answer of ${a2.length} segments × (1 retrieval decision + ${DEFAULT_DECODE_SETTINGS.passagesPerStep} passages), tokens from the models' own tokenizers (chat template included).`,
  );
  console.log(
    '| engine (tokenizer) | standalone prompt+decoded | rewrite call prompt+decoded | history per call | follow-up total | ratio | history budget | tokens per turn (this answer / a 600-character one) | turns the budget holds (same two) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const e of engines) {
    const v = await loadVocab(e.family);
    const count = (system: string, user: string) => v.encode(v.template(system, user)).length;
    const encode = (t: string) => v.encode(t).length;
    const history: HistoryTurn[] = [{ question: q1, answer: a1.join(' ') }];
    const budget = historyBudget(e.window);
    const fitted = fitHistory(history, budget, encode);
    const standalone = answerCost(count, encode, rewrite, passages, a2);
    const followed = answerCost(count, encode, questionWithHistory(rewrite, historyText(fitted)), passages, a2);
    const req = rewritePrompt(history, q2)!;
    const rewriteCost = count(req.system, req.prompt) + encode(rewrite) + 1;
    const total = followed.prompt + followed.decoded + rewriteCost;
    const base = standalone.prompt + standalone.decoded;
    const perTurn = encode(formatHistoryTurn(history[0]!)) + 1;
    // A long answer is carried as at most 600 characters: the worst case per turn.
    const long: HistoryTurn = {
      question: q1,
      answer: passages
        .map((p) => p.text)
        .join(' ')
        .slice(0, 600),
    };
    const keptShort = fitHistory(
      Array.from({ length: 40 }, () => history[0]!),
      budget,
      encode,
      40,
    ).turns.length;
    const keptLong = fitHistory(
      Array.from({ length: 40 }, () => long),
      budget,
      encode,
      40,
    ).turns.length;
    const perLong = encode(formatHistoryTurn(long)) + 1;
    const perCall = encode(questionWithHistory(rewrite, historyText(fitted))) - encode(rewrite);
    console.log(
      `| ${e.name} (${e.family}) | ${base} | ${rewriteCost} | ${perCall} | ${total} | ${(total / base).toFixed(2)}x | ${budget} of ${e.window} | ${perTurn} / ${perLong} | ${keptShort} / ${keptLong} (then the ${MAX_HISTORY_TURNS}-turn cap) |`,
    );
  }
  console.log(
    `History budget: min(window/4, window − ${DECODE_RESERVE_TOKENS} reserved for the Self-RAG prompt, one passage and the segment); at most ${MAX_HISTORY_TURNS} turns; answers carried as at most 600 characters.`,
  );
}

export async function run(): Promise<void> {
  retrieval();
  unchangedRewrites();
  await tokens();
}
