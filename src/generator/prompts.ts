// The words sent to the model. Prompted mode (any instruct model) asks for the
// Self-RAG structure in plain labels and the grammar of ./form.ts holds it to
// it; native mode uses the released Self-RAG prompt format verbatim.
import type { Passage } from '../core/ports';
import { formatSelfRagPrompt, RETRIEVE } from '../core/reflection-tokens';

// The system prompts are constant so a future engine with prefix caching can reuse them.
export const SYSTEM_WITH_PASSAGE = [
  "You write the next short step of an answer to the user's question, using the passage you are given, and then grade your own step.",
  'Reply in exactly this form, one item per line:',
  'Relevance: relevant or irrelevant (does the passage help answer the question?)',
  'Answer: the next one or two sentences of the answer, based on the passage; do not repeat the answer so far',
  'Support: fully, partially or no (is everything in your sentences stated by the passage?)',
  'Utility: 1 to 5 (how useful are your sentences as a response to the question?)',
  'Next: retrieve, continue or done (does the next step need another passage, can it continue without one, or is the answer complete?)',
].join('\n');

export const SYSTEM_WITHOUT_PASSAGE = [
  "You write the next short step of an answer to the user's question from your own knowledge, then grade it.",
  'Reply in exactly this form, one item per line:',
  'Answer: the next one or two sentences of the answer; do not repeat the answer so far',
  'Utility: 1 to 5 (how useful are your sentences as a response to the question?)',
  'Next: retrieve, continue or done (does the next step need a passage from the documents, can it continue without one, or is the answer complete?)',
].join('\n');

export const SYSTEM_DECISION = [
  "Decide whether the next step of the answer to the user's question needs evidence from the user's documents.",
  'Reply with "Evidence needed: yes" when it needs facts from the documents, "Evidence needed: no" when it can be written without them.',
].join('\n');

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
