// The cited passage with its supporting sentence highlighted. The highlight is
// computed as a text range and rendered as text slices, never as markup.
import { useEffect, useRef } from 'react';
import type { Candidate } from '../core/types';
import { splitByRange, supportingSentence } from '../app/view/highlight';
import { passageDisplayText } from '../app/view/passage-text';
import { placeLabel } from '../core/source-location';
import { SourceSection } from './source/SourceSection';

/**
 * A passage to show: a citation's candidate (its segment is what the passage supports), or a
 * passage opened from the evidence list, where no segment was written: the question stands in.
 */
export type OpenedPassage = Pick<Candidate, 'passage' | 'text'> & { against?: 'segment' | 'question' };

export function PassageDialog({ candidate, onClose }: { candidate: OpenedPassage | null; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    // Focus starts on Close, not on the first link of the source below the passage.
    if (candidate && !d.open) {
      d.showModal();
      close.current?.focus();
    }
    if (!candidate && d.open) d.close();
  }, [candidate]);
  const passage = candidate?.passage;
  const shown = passage ? passageDisplayText(passage.text) : '';
  const parts = passage ? splitByRange(shown, supportingSentence(shown, candidate.text)) : [];
  return (
    <dialog
      ref={ref}
      className="passage-dialog"
      onClose={onClose}
      aria-labelledby="passage-title"
      data-testid="passage-dialog"
    >
      {passage && (
        <>
          <h2 id="passage-title">
            {passage.title} · passage {passage.index + 1}
          </h2>
          <p className="passage-place" data-testid="passage-place">
            {placeLabel(passage)}
          </p>
          <p className="passage-text" data-testid="passage-text">
            {parts.map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
          </p>
          <p className="muted">
            Highlighted: the sentence that shares the most words with the{' '}
            {candidate.against === 'question' ? 'question' : 'segment'}.
          </p>
          <SourceSection passage={passage} segment={candidate.text} />
        </>
      )}
      <form method="dialog">
        <button type="submit" ref={close}>
          Close
        </button>
      </form>
    </dialog>
  );
}
