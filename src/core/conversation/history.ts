// Which earlier turns go into a follow-up's context. The model window is small (4k tokens
// for the default models), so the newest turns are kept and the oldest dropped first, and
// the caller learns how many were dropped so the page can say so.
import type { Turn } from './thread';

export type CountTokens = (text: string) => number;

export interface HistoryTurn {
  question: string;
  answer: string;
}

export interface FittedHistory {
  /** Kept turns, oldest first. */
  turns: HistoryTurn[];
  /** How many earlier turns did not fit. */
  dropped: number;
  /** Tokens the kept turns take, as the counter measured them. */
  tokens: number;
}

/** Most turns ever considered, whatever the budget: beyond this a conversation has moved on. */
export const MAX_HISTORY_TURNS = 6;
/** Longest answer text carried into history, in characters (the rest is cut at a word). */
export const MAX_ANSWER_CHARS = 600;

/**
 * Tokens the decode needs for itself in the window: the Self-RAG prompt with one passage
 * (about 180 words of passage plus instruction), the segments already written and the new
 * segment. History gets what is left, but never more than a quarter of the window.
 */
export const DECODE_RESERVE_TOKENS = 1280;

export function historyBudget(contextWindow: number, reserve = DECODE_RESERVE_TOKENS): number {
  return Math.max(0, Math.min(Math.floor(contextWindow / 4), contextWindow - reserve));
}

export function formatHistoryTurn(t: HistoryTurn): string {
  return `User: ${t.question}\nAssistant: ${t.answer}`;
}

/**
 * A turn as the answer-writing prompts show it: its question only. A small model pastes what it
 * is shown, and given the earlier answers verbatim it wrote the previous answer again as the
 * follow-up's (issue 46); the earlier questions still tell it what "one" or "it" is. The rewrite
 * (./rewrite.ts) still reads whole turns.
 */
export function formatQuestionTurn(t: HistoryTurn): string {
  return `User: ${t.question}`;
}

function shorten(text: string, max: number): string {
  const s = text.trim().replace(/\s+/g, ' ');
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** Turns usable as history: finished ones with something to say. */
export function historyTurns(path: readonly Turn[]): HistoryTurn[] {
  return path
    .filter((t) => t.status !== 'failed')
    .map((t) => ({ question: t.question.trim(), answer: shorten(t.answerText, MAX_ANSWER_CHARS) }));
}

/** The newest turns that fit in `budget` tokens (oldest dropped first), each as `format` writes it. */
export function fitHistory(
  turns: readonly HistoryTurn[],
  budget: number,
  count: CountTokens,
  maxTurns = MAX_HISTORY_TURNS,
  format: (t: HistoryTurn) => string = formatHistoryTurn,
): FittedHistory {
  const kept: HistoryTurn[] = [];
  let tokens = 0;
  for (let i = turns.length - 1; i >= 0 && kept.length < maxTurns; i--) {
    const cost = count(format(turns[i]!)) + 1;
    if (tokens + cost > budget) break;
    kept.unshift(turns[i]!);
    tokens += cost;
  }
  return { turns: kept, dropped: turns.length - kept.length, tokens };
}

/** The kept turns as one block of text (empty when there are none), whole or as `format` writes them. */
export function historyText(h: FittedHistory, format: (t: HistoryTurn) => string = formatHistoryTurn): string {
  return h.turns.map(format).join('\n');
}

/** The answers of the turns before a follow-up, whole (the non-answer guard holds each candidate against them). */
export function earlierAnswers(path: readonly Turn[]): string[] {
  return path.filter((t) => t.status !== 'failed' && t.answerText.trim()).map((t) => t.answerText);
}

/**
 * The question the generator sees in a follow-up: the question, then the kept turns as `history`
 * (the earlier questions: formatQuestionTurn), which the decode's prompts put after "Question:".
 */
export function questionWithHistory(question: string, history: string): string {
  return history ? `${question}\n(Earlier in this conversation:\n${history})` : question;
}
