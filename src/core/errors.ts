import type { AnswerTree } from './types';

/**
 * Input the core cannot turn into a correct answer (malformed probabilities, impossible
 * settings, a port breaking its contract). Thrown instead of guessing, so a bug in a
 * generator or a slider shows up as a message rather than as a silently wrong ranking.
 */
export class CoreInputError extends Error {
  override readonly name = 'CoreInputError';
  /** When thrown by `decode`, everything finished before the bad input arrived. */
  readonly partial?: AnswerTree;

  constructor(message: string, partial?: AnswerTree) {
    super(message);
    if (partial) this.partial = partial;
  }
}

/**
 * The text to show for anything thrown. Libraries and worker channels throw strings and plain
 * objects as well as Errors, so a message is read from an Error and anything else is stringified.
 */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Whether `e` is an abort (a user's Stop, a superseded request), which callers pass on rather
 * than report or retry. Judged by name alone: a DOMException is not an Error everywhere, and an
 * abort that crossed a worker channel arrives as a plain object that kept only its name.
 */
export function isAbort(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'AbortError';
}
