// The answer as sent to an embedding page: plain data, no candidate internals.
import { critiqueOf } from './critique-badges';
import type { AnswerState } from '../state/answer';
import type { EmbedReply, EmbedSegment } from '../wiring/embed-bridge';

export function answerMessage(a: AnswerState, id: string | undefined, evidenceOnly: boolean): EmbedReply {
  if (a.status === 'error') return { type: 'error', id, message: a.error ?? 'The answer failed.' };
  const segments: EmbedSegment[] = evidenceOnly
    ? (a.evidence?.passages ?? []).map(({ passage, rel }) => ({
        text: passage.text,
        citation: { passageId: passage.id, title: passage.title },
        isrel: rel ? critiqueOf({ rel, fromGenerator: {} }).rel?.score ?? null : null,
        issup: null,
        isuse: null,
      }))
    : (a.ranking?.best ?? []).map(({ candidate: c }) => {
        const k = critiqueOf(c);
        return {
          text: c.text,
          citation: c.passage ? { passageId: c.passage.id, title: c.passage.title } : null,
          isrel: k.rel?.score ?? null,
          issup: k.sup?.score ?? null,
          isuse: k.use?.score ?? null,
        };
      });
  return { type: 'answer', id, question: a.question, segments, aborted: a.status === 'stopped', evidenceOnly };
}
