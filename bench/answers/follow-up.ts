// A follow-up asked as the page asks it, in Node over the app's own core (app/wiring/conversation-ask.ts
// composes the same calls): what it is searched by (searchPlan; for a follow-up the model's rewrite,
// cleaned, else the earlier questions joined), the earlier questions the prompts show
// (formatQuestionTurn, fitted to the window), the earlier answers given to the guard only, then the
// default decode on the searched form. The bench of issue 46 (bench/follow-ups.bench.ts) drives it.
import {
  earlierAnswers,
  fitHistory,
  formatQuestionTurn,
  historyBudget,
  historyText,
  historyTurns,
} from '../../src/core/conversation/history';
import { generatorInThread } from '../../src/core/conversation/in-thread';
import { cleanRewrite, rewritePrompt } from '../../src/core/conversation/rewrite';
import { readingsRetriever, searchPlan } from '../../src/core/conversation/search-plan';
import type { Turn } from '../../src/core/conversation/thread';
import type { CompleteRequest, CompleteResult } from '../../src/generator/handle';
import { answer, type Answered, type Ports } from './rows';

/** What the follow-up was searched by, as the page records it on the turn. */
export interface SearchedForm {
  query: string;
  rewrite: string | null;
  /** Why the model's rewrite was not used, in the page's words. */
  note?: string;
  readings?: string[];
}

/** Qwen2.5's window as the page's llama.cpp engine opens it (src/generator/wllama: n_ctx 4096). */
export const CONTEXT_WINDOW = 4096;
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** An earlier turn as the thread keeps it: its question and the text of its chosen segments. */
export function keptTurn(id: string, question: string, answerText: string, parentId: string | null): Turn {
  return {
    id,
    parentId,
    children: [],
    question,
    rewrite: null,
    answer: null,
    answerText,
    settings: {},
    model: 'bench',
    status: 'done',
    createdAt: 0,
  };
}

/** searchForm of conversation-ask.ts: a standalone question as typed, a follow-up with its subject. */
export async function searchedForm(
  path: Turn[],
  question: string,
  complete: (req: CompleteRequest) => Promise<CompleteResult>,
): Promise<SearchedForm> {
  const earlier = path.map((t) => t.question);
  const plan = searchPlan(question, earlier);
  if (plan.searched === null) return { query: question, rewrite: null };
  const req = rewritePrompt(historyTurns(path).slice(-3), question);
  let rewrite: string | null = null;
  let note: string | undefined;
  if (req) {
    const cleaned = cleanRewrite(
      (await complete(req)).text,
      question,
      path.map((t) => t.question),
    );
    if (cleaned.usedRewrite) rewrite = cleaned.query;
    else note = `The rewrite was not used (${cleaned.reason})`;
  }
  const final = rewrite ? searchPlan(question, earlier, { rewrite }) : plan;
  return {
    query: final.searched ?? question,
    rewrite,
    ...(note ? { note } : {}),
    ...(final.queries.length > 1 ? { readings: final.queries } : {}),
  };
}

/** The default's answer to `question` asked after `path`, as the page's controller writes it. */
export async function answerInThread(
  path: Turn[],
  question: string,
  ports: Ports & { complete: (req: CompleteRequest) => Promise<CompleteResult> },
): Promise<{ form: SearchedForm; answered: Answered }> {
  const form = await searchedForm(path, question, ports.complete);
  const history = fitHistory(
    historyTurns(path),
    historyBudget(CONTEXT_WINDOW),
    estimateTokens,
    undefined,
    formatQuestionTurn,
  );
  // As the page asks (src/app/wiring/conversation-ask.ts): a standalone rewrite alone, else the follow-up as typed with the earlier questions.
  const context = form.rewrite ? '' : historyText(history, formatQuestionTurn);
  const earlier = earlierAnswers(path);
  const generator = Object.assign(generatorInThread(ports.generator, { context, earlier, asked: question }), {
    write: ports.generator.write.bind(ports.generator),
  });
  const retriever = readingsRetriever(ports.retriever, form.query, form.readings ?? []);
  const answered = await answer('adaptive', form.query, { ...ports, generator, retriever });
  return { form, answered };
}
