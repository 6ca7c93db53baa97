// The words sent to the model. Prompted mode (any instruct model) asks for the
// Self-RAG structure in plain labels and the grammar of ./form.ts holds it to
// it; native mode uses the released Self-RAG prompt format verbatim.
import type { Passage } from '../core/ports';
import { formatSelfRagPrompt, RETRIEVE } from '../core/reflection-tokens';

// The system prompts are constant so a future engine with prefix caching can
// reuse them, and short because every candidate prefills them again (web-llm
// reuses its KV cache only when a conversation continues). The grammar holds
// the reply to the form, so the words only need to say what each slot means.
export const SYSTEM_WITH_PASSAGE = [
  'Continue the answer to the question using the passage, then grade your step. Reply exactly:',
  'Relevance: relevant|irrelevant (does the passage help answer the question?)',
  'Answer: the next 1-2 sentences, from the passage, not repeating the answer so far',
  'Support: fully|partially|no (does the passage state what you wrote?)',
  'Utility: 1-5 (how useful is it as a response to the question?)',
  'Next: retrieve|continue|done (the next step needs a passage / needs none / the answer is complete)',
].join('\n');

export const SYSTEM_WITHOUT_PASSAGE = [
  'Continue the answer to the question from your own knowledge, then grade your step. Reply exactly:',
  'Answer: the next 1-2 sentences, not repeating the answer so far',
  'Utility: 1-5 (how useful is it as a response to the question?)',
  'Next: retrieve|continue|done (the next step needs a passage from the documents / needs none / the answer is complete)',
].join('\n');

export const SYSTEM_DECISION =
  'Does the next step of the answer need facts from the user\'s documents? Reply "Evidence needed: yes" or "Evidence needed: no".';

function soFar(previous: readonly string[]): string {
  return previous.length ? previous.join(' ') : '(nothing yet)';
}

export function segmentUserMessage(question: string, previous: readonly string[], passage: Passage | null): string {
  const lines = [`Question: ${question}`, `Answer so far: ${soFar(previous)}`];
  if (passage) lines.push(`Passage: ${passage.title}\n${passage.text}`);
  return lines.join('\n');
}

export function decisionUserMessage(question: string, previous: readonly string[]): string {
  return `Question: ${question}\nAnswer so far: ${soFar(previous)}`;
}

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
