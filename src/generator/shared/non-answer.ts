// The guard that keeps non-answers off the page. A candidate is withheld (ranked below every
// answer, never continued, and never shown as the answer: src/core/beam.ts) when what the model
// wrote is not an answer from its passage:
//   form-text  it repeats the prompt's own words, or talks about its question and instructions;
//   repeat     it repeats a segment the answer already holds;
//   earlier-answer  it repeats the answer of an earlier turn of its thread (a small model in a
//              follow-up pastes the answer before it: issue 46), by the same test as `repeat`;
//   declined   it says the passage does not answer the question;
//   cut-off    the token limit ended it before one whole sentence;
//   unread     a critique the score needs could not be read.
// Small models do all of these (docs/benchmarks-answer.md); each is counted in the benchmarks.
import type { Withheld } from '../../core/types';
import { PROMPT_TEXTS } from '../prompts';

const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

function trigrams(ws: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 3 <= ws.length; i++) out.push(ws.slice(i, i + 3).join(' '));
  return out;
}

/** Share of the text's word trigrams (its words, when it has fewer than three) found in `source`. */
export function copiedShare(text: string, source: readonly string[]): number {
  const ws = words(text);
  if (!ws.length) return 0;
  if (ws.length < 3) {
    const joined = ` ${source.map((s) => words(s).join(' ')).join(' | ')} `;
    return joined.includes(` ${ws.join(' ')} `) ? 1 : 0;
  }
  const known = new Set(source.flatMap((s) => trigrams(words(s))));
  const grams = trigrams(ws);
  return grams.filter((g) => known.has(g)).length / grams.length;
}

// How a model says it found nothing (in the words our prompt never offers it).
const DECLINED =
  /^(?:(?:the|this) (?:passage|text|document|context)|it|i)\s+(?:does not|doesn't|do not|don't|cannot|can't|is not able to)\s+(?:say|mention|provide|contain|include|specify|state|explain|describe|answer|give|tell|find|have)\b|^(?:there is|there's)\s+no\s+(?:information|mention)\b|^(?:i'm sorry|sorry)\b/i;

// Talk about the prompt instead of an answer. Qwen2.5-Coder-0.5B showed "The question asks what
// does time print for an invalid backslash escape in its format string. The question asks what
// comes next." (html-027 of the test split): the question restated, which is not the prompts' own
// text, with three of its words, so the trigram share stayed under the form-text threshold.
const ABOUT_THE_PROMPT =
  /\b(?:the|this|your) question (?:asks|is asking)\b|\bwhat comes next\b|\bso far the answer says\b/i;

/** Share of a candidate's trigrams found in earlier text at which it is a repeat, not an answer. */
export const REPEAT_SHARE = 0.6;

export interface AnswerCheck {
  /** The answer text (whole sentences). */
  text: string;
  /** What the model wrote, before it was cut to whole sentences. */
  raw: string;
  /** The segments the answer already holds. */
  previous: readonly string[];
  /** The answers of the earlier turns of the thread (a follow-up's). */
  earlier?: readonly string[];
  /** The passage it was written from, if any: a quote of it is an answer, not form text. */
  passage?: string;
}

/** Why the written text is not an answer, or undefined when it is one. */
export function nonAnswer(c: AnswerCheck): Withheld | undefined {
  if (!c.text) {
    return c.raw.trim()
      ? { reason: 'cut-off', detail: 'The model was stopped at its token limit before it finished a sentence.' }
      : { reason: 'cut-off', detail: 'The model wrote no answer.' };
  }
  if (copiedShare(c.text, PROMPT_TEXTS) >= 0.5 && copiedShare(c.text, [c.passage ?? '']) < 0.5) {
    return {
      reason: 'form-text',
      detail: 'The model repeated the words of its own instructions instead of answering.',
    };
  }
  if (ABOUT_THE_PROMPT.test(c.text) && !ABOUT_THE_PROMPT.test(c.passage ?? '')) {
    return {
      reason: 'form-text',
      detail: 'The model talked about its question and instructions instead of answering.',
    };
  }
  if (c.previous.length && copiedShare(c.text, c.previous) >= REPEAT_SHARE) {
    return { reason: 'repeat', detail: 'The model repeated what the answer already says.' };
  }
  const earlier = earlierAnswer(c.text, c.earlier);
  if (earlier) return earlier;
  if (DECLINED.test(c.text.trim())) {
    return { reason: 'declined', detail: 'The model said this passage does not answer the question.' };
  }
  return undefined;
}

/**
 * Withheld when `text` repeats an earlier turn's answer (the test of a repeated segment, against
 * the thread's earlier answers), else undefined. Also applied to a native model's segments.
 */
export function earlierAnswer(text: string, earlier: readonly string[] | undefined): Withheld | undefined {
  const answers = earlier?.filter((a) => a.trim()) ?? [];
  if (!answers.length || copiedShare(text, answers) < REPEAT_SHARE) return undefined;
  return {
    reason: 'earlier-answer',
    detail: 'The model repeated an earlier answer of this conversation instead of answering this question.',
  };
}

export function unread(what: string): Withheld {
  return { reason: 'unread', detail: `The model's ${what} could not be read, so this candidate cannot be scored.` };
}
