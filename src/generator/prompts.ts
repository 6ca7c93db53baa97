// The words sent to the model. Prompted mode (any instruct model) holds a chat: the answer is
// the assistant's natural reply to a passage and a question, and each critique is a short
// question whose one-word reply a grammar holds to its alternatives (./form.ts). Native mode
// uses the released Self-RAG prompt format verbatim.
//
// Nothing here may be pasteable as an answer: small models copy what a prompt offers (a
// described template's "1-5" and "the next 1-2 sentences, from the passage, …" were shown as
// answers), and a worked example was copied too. So the prompt describes no answer and shows no
// example, and ./non-answer.ts withholds any candidate that repeats these words.
// Measured in docs/benchmarks-answer.md (bench/answers/).
import type { Passage } from '../core/ports';
import { formatSelfRagPrompt, RETRIEVE } from '../core/reflection-tokens';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export const SYSTEM_ANSWER =
  "You answer questions about the user's documents from the passage they give you, in one or two sentences.";

const passageBlock = (p: Passage): string => `Passage from "${p.title}":\n${p.text}`;

/**
 * The answer turn: the passage and the question from the user, the answer from the assistant.
 * A follow-up's question carries the thread's earlier questions, never its earlier answers (small
 * models paste what they are shown: core/conversation/history.ts, formatQuestionTurn).
 * Later segments carry the answer so far and ask for what comes next. The system prompt comes
 * first and never changes, so an engine's prefix cache holds it across candidates and questions.
 * No worked example follows it: Qwen2.5-Coder-0.5B copied the one it once carried into real answers
 * ("modify the schedule key in backup.toml" to run tests one at a time), and without it the default
 * held the gold in 21 of 30 dev questions against 17 (docs/benchmarks-answer.md).
 */
export function answerMessages(question: string, previous: readonly string[], passage: Passage | null): ChatMessage[] {
  const parts = [passage ? passageBlock(passage) : '', `Question: ${question}`];
  if (previous.length) parts.push(`So far the answer says: ${previous.join(' ')}\nWhat comes next?`);
  return [
    { role: 'system', content: SYSTEM_ANSWER },
    { role: 'user', content: parts.filter(Boolean).join('\n\n') },
  ];
}

/** Utility, asked of the answer's own conversation: it costs the question and one token. */
export const USE_QUESTION =
  'How well does your answer answer the question, from 1 (not at all) to 5 (completely)? Reply with one number.';

export function useMessages(answer: readonly ChatMessage[], text: string): ChatMessage[] {
  return [...answer, { role: 'assistant', content: text }, { role: 'user', content: USE_QUESTION }];
}

/**
 * Relevance and support are asked of a judge, not of the writer: a model asked about "your
 * answer" in its own conversation graded nearly everything alike, and a judge reading a
 * passage, a question and a statement told them apart better (docs/benchmarks-answer.md).
 * Support follows relevance in the same conversation, so it is one more question and one token.
 */
export const SYSTEM_JUDGE = 'You judge passages from documents and statements about them.';
export const REL_QUESTION = 'Is the passage relevant to the question? Answer Yes or No.';
export const SUP_QUESTION = 'Is the statement supported by the passage? Answer Yes, Partially or No.';

export function relMessages(question: string, passage: Passage): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM_JUDGE },
    { role: 'user', content: `${passageBlock(passage)}\n\nQuestion: ${question}\n\n${REL_QUESTION}` },
  ];
}

/**
 * The generator as the retrieval's re-ranker (core/hybrid.ts, the 'generator' reranker): asked
 * whether the passage *answers* the question, not whether it is relevant, a 1.5B model re-ranked
 * better (recall@3 +0.05 held out, against +0.04 on the dev split for the relevance question:
 * docs/retrieval.md, `npm run bench -- generator-rerank`). The same judge turn and reply form as ISREL.
 */
export const JUDGE_QUESTION = 'Does the passage answer the question? Answer Yes or No.';

export function judgeMessages(question: string, passage: Passage): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM_JUDGE },
    { role: 'user', content: `${passageBlock(passage)}\n\nQuestion: ${question}\n\n${JUDGE_QUESTION}` },
  ];
}

export function supMessages(question: string, passage: Passage, text: string, rel?: string): ChatMessage[] {
  const statement = `Statement: ${text}\n\n${SUP_QUESTION}`;
  if (rel === undefined) {
    return [
      { role: 'system', content: SYSTEM_JUDGE },
      { role: 'user', content: `${passageBlock(passage)}\n\n${statement}` },
    ];
  }
  return [...relMessages(question, passage), { role: 'assistant', content: rel }, { role: 'user', content: statement }];
}

/** The retrieval decision before a segment: would the documents help? */
export const DECISION_QUESTION = "Would looking in the user's documents help answer this? Answer Yes or No.";

export function decisionMessages(question: string, previous: readonly string[]): ChatMessage[] {
  const soFar = previous.length ? `\n\nSo far the answer says: ${previous.join(' ')}` : '';
  return [{ role: 'user', content: `Question: ${question}${soFar}\n\n${DECISION_QUESTION}` }];
}

/** Every fixed sentence of the prompts: a candidate that repeats them is not an answer (./non-answer.ts). */
export const PROMPT_TEXTS: readonly string[] = [
  SYSTEM_ANSWER,
  USE_QUESTION,
  SYSTEM_JUDGE,
  REL_QUESTION,
  JUDGE_QUESTION,
  SUP_QUESTION,
  DECISION_QUESTION,
  'So far the answer says:',
  'What comes next?',
];

/** Native Self-RAG: the released prompt, with the chosen segments appended (as the reference does). */
export function nativeSegmentPrompt(question: string, previous: readonly string[], passage: Passage | null): string {
  const prev = previous.length ? previous.join(' ') + ' ' : '';
  const prompt = formatSelfRagPrompt(question, passage ? { title: passage.title, text: passage.text } : null, prev);
  return passage ? prompt : prompt + RETRIEVE.noRetrieval;
}

export function nativeDecisionPrompt(question: string, previous: readonly string[]): string {
  const prev = previous.length ? previous.join(' ') + ' ' : '';
  return formatSelfRagPrompt(question, null, prev);
}
