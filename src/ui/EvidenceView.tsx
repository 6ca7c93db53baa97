// Evidence-only mode: the best passages with their relevance badges, and why
// no answer is written.
import type { AnswerState } from '../app/state/answer';
import { relCritique } from '../app/view/critique-badges';
import { passageDisplayText } from '../app/view/passage-text';
import { stagesRan } from '../app/view/rank-stages';
import { CoverageNotice } from './answer/CoverageNotice';
import { RelBadge } from './Badges';
import { PassageRanks } from './PassageRanks';
import type { ScoredPassage } from '../core/ports';
import { citationLabel } from '../core/source-location';

export function EvidenceView({
  answer,
  showQuestion = false,
  onOpenPassage,
}: {
  answer: AnswerState;
  showQuestion?: boolean;
  onOpenPassage?: (c: { passage: ScoredPassage; text: string; against: 'question' }) => void;
}) {
  const ev = answer.evidence;
  const ran = stagesRan(ev?.passages.map((p) => p.passage.ranks) ?? []);
  return (
    <section
      className="evidence"
      aria-labelledby="evidence-heading"
      aria-busy={answer.status === 'running'}
      data-status={answer.status}
      data-testid="evidence"
    >
      <h2 id="evidence-heading">Best passages</h2>
      {showQuestion && answer.question && <p className="question">{answer.question}</p>}
      <CoverageNotice answer={answer} />
      {answer.status === 'running' && <p className="muted">Searching…</p>}
      {ev && ev.passages.length === 0 && <p>No passage in the library matches. Add documents in the Library.</p>}
      {ev && (
        <ol className="passages">
          {ev.passages.map(({ passage, rel }) => {
            const critique = relCritique(rel ?? undefined);
            return (
              <li key={passage.id} className="passage" data-testid="evidence-passage">
                <h3>
                  {passage.title} · passage {passage.index + 1}
                </h3>
                <p className="passage-text">{passageDisplayText(passage.text)}</p>
                <div className="segment-meta">
                  {onOpenPassage && (
                    <button
                      type="button"
                      className="citation"
                      data-testid="evidence-open-source"
                      onClick={() => onOpenPassage({ passage, text: answer.question, against: 'question' })}
                    >
                      <span aria-hidden="true">¶ </span>
                      {citationLabel(passage)}
                    </button>
                  )}
                  {critique && <RelBadge rel={critique} />}
                  {passage.ranks ? (
                    <PassageRanks ranks={passage.ranks} ran={ran} />
                  ) : (
                    <span className="muted">similarity {passage.score.toFixed(2)}</span>
                  )}
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {answer.error && (
        <p className="error" role="alert">
          {answer.error}
        </p>
      )}
    </section>
  );
}
