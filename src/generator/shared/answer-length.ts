// Where a prompted answer stops: after one or two whole sentences, as a chat model's short answer
// does, not at a line break or a token count. The engine streams the reply and is stopped as
// soon as a third sentence begins; a reply cut off by the token limit keeps its whole sentences.
import { sentenceSpans } from '../../core/sentences';

/** Sentences a candidate may hold. */
export const MAX_SENTENCES = 2;

// A sentence is whole when it ends in sentence punctuation (closing quotes, brackets or a code
// span may follow), or is a fenced code block that was closed.
const WHOLE = /([.!?…]["'”’)\]`*_]*|```)$/;

/** Enough has been written: `max` sentences are whole and the next one has begun. */
export function enoughSentences(text: string, max = MAX_SENTENCES): boolean {
  if (openFence(text)) return false;
  return sentenceSpans(text).length > max;
}

/**
 * The answer in a reply: at most `max` sentences. A reply the model ended itself keeps its last
 * sentence even without a full stop; one that was stopped or cut off keeps only whole sentences
 * ('' when none is whole: the candidate was cut off before it said anything).
 */
export function answerText(text: string, ended: boolean, max = MAX_SENTENCES): string {
  const spans = sentenceSpans(text).slice(0, max);
  if (!ended) while (spans.length && !WHOLE.test(spans[spans.length - 1]!.text)) spans.pop();
  if (!spans.length) return '';
  return text.slice(spans[0]!.start, spans[spans.length - 1]!.end).trim();
}

/** Inside a fenced code block that has not been closed yet. */
function openFence(text: string): boolean {
  return (text.match(/```/g)?.length ?? 0) % 2 === 1;
}
