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

/** The newest turns that fit in `budget` tokens (oldest dropped first). */
export function fitHistory(
  turns: readonly HistoryTurn[],
  budget: number,
  count: CountTokens,
  maxTurns = MAX_HISTORY_TURNS,
): FittedHistory {
  const kept: HistoryTurn[] = [];
  let tokens = 0;
  for (let i = turns.length - 1; i >= 0 && kept.length < maxTurns; i--) {
    const cost = count(formatHistoryTurn(turns[i]!)) + 1;
    if (tokens + cost > budget) break;
    kept.unshift(turns[i]!);
    tokens += cost;
  }
  return { turns: kept, dropped: turns.length - kept.length, tokens };
}

/** The kept turns as one block of text for the decode's prompt (empty when there are none). */
export function historyText(h: FittedHistory): string {
  return h.turns.map(formatHistoryTurn).join('\n');
}

/** The question the generator sees in a follow-up: the question, then the kept turns (the decode's prompts put it after "Question:"). */
export function questionWithHistory(question: string, history: string): string {
  return history ? `${question}\n(Earlier in this conversation:\n${history})` : question;
}
