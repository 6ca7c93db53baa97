// An answer with nothing to show because nothing the model wrote was an answer: why, in one
// line; the passages it was given, as evidence-only mode shows passages; and, folded away, what it
// wrote instead with the reason each was withheld (never shown as the answer).
import type { NoAnswer as NoAnswerView } from '../../app/view/no-answer';
import { relCritique } from '../../app/view/critique-badges';
import type { Candidate } from '../../core/types';
import { citationLabel } from '../../core/source-location';
import { RelBadge } from '../Badges';
import { PassageRanks } from '../PassageRanks';

export function NoAnswer({
  view,
  question,
  onOpenPassage,
}: {
  view: NoAnswerView;
  /** The question asked: the passage dialog marks the sentence nearest to it. */
  question: string;
  onOpenPassage: (c: Pick<Candidate, 'passage' | 'text'>) => void;
}) {
  return (
    <div className="no-answer" data-testid="withheld-answer">
      <p className="notice" role="status" data-testid="no-answer" data-reasons={view.reasons.join(' ')}>
        {view.message}
        {view.passages.length > 0 ? ' The passages it was given are below.' : ''}
      </p>
      {view.passages.length > 0 && (
        <ol className="passages">
          {view.passages.map(({ passage, rel }) => {
            const critique = relCritique(rel ?? undefined);
            return (
              <li key={passage.id} className="passage" data-testid="no-answer-passage">
                <h3>
                  {passage.title} · passage {passage.index + 1}
                </h3>
                <p className="passage-text">{passage.text}</p>
                <div className="segment-meta">
                  <button
                    type="button"
                    className="citation"
                    data-testid="no-answer-open-source"
                    onClick={() => onOpenPassage({ passage, text: question })}
                  >
                    <span aria-hidden="true">¶ </span>
                    {citationLabel(passage)}
                  </button>
                  {critique && <RelBadge rel={critique} />}
                  {passage.ranks && <PassageRanks ranks={passage.ranks} />}
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {view.written.length > 0 && (
        <details className="withheld-written" data-testid="withheld-written">
          <summary>
            What the model wrote instead ({view.written.length} candidate{view.written.length === 1 ? '' : 's'}, none of
            them an answer)
          </summary>
          <ul>
            {view.written.map((w) => (
              <li key={w.candidate.id} data-testid="withheld-candidate" data-reason={w.reason}>
                <strong>{w.detail}</strong> {w.candidate.text ? <q className="muted">{w.candidate.text}</q> : null}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
