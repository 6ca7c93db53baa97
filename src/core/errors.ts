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
