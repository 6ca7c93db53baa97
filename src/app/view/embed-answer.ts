// The answer as sent to an embedding page: plain data, no candidate internals.
import { critiqueOf } from './critique-badges';
import type { Passage } from '../../core/ports';
import { placeLabel, PLACE_NOT_KNOWN } from '../../core/source-location';
import type { AnswerState } from '../state/answer';
import type { EmbedReply, EmbedSegment } from './embed-messages';

/** The citation as the embed protocol carries it; the place only where it is known. */
export function citationOf(p: Passage): NonNullable<EmbedSegment['citation']> {
  const place = placeLabel(p);
  const s = p.source;
  return {
    passageId: p.id,
    title: p.title,
    ...(place && place !== PLACE_NOT_KNOWN ? { place } : {}),
    ...(s?.page !== undefined ? { page: s.page } : {}),
    ...(s?.pageEnd !== undefined ? { pageEnd: s.pageEnd } : {}),
    ...(s?.headings?.length ? { headings: [...s.headings] } : {}),
  };
}

export function answerMessage(a: AnswerState, id: string | undefined, evidenceOnly: boolean): EmbedReply {
  if (a.status === 'error') return { type: 'error', id, message: a.error ?? 'The answer failed.' };
  const segments: EmbedSegment[] = evidenceOnly
    ? (a.evidence?.passages ?? []).map(({ passage, rel }) => ({
        text: passage.text,
        citation: citationOf(passage),
        isrel: rel ? (critiqueOf({ rel, fromGenerator: {} }).rel?.score ?? null) : null,
        issup: null,
        isuse: null,
      }))
    : (a.ranking?.best ?? []).map(({ candidate: c }) => {
        const k = critiqueOf(c);
        return {
          text: c.text,
          citation: c.passage ? citationOf(c.passage) : null,
          isrel: k.rel?.score ?? null,
          issup: k.sup?.score ?? null,
          isuse: k.use?.score ?? null,
        };
      });
  return { type: 'answer', id, question: a.question, segments, aborted: a.status === 'stopped', evidenceOnly };
}
