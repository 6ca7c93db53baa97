// The answer as chosen segments, plus what is being written right now.
import { lazy, Suspense } from 'react';
import type { AnswerState } from '../app/state/answer';
import { siblingsOf } from '../app/state/answer';
import { abstainedAtStart, emptyAnswerReason } from '../app/view/answer-summary';
import { writtenBySentence } from '../app/view/written-by';
import { noAnswerOf } from '../app/view/no-answer';
import { ragasWhen } from '../app/view/ragas-when';
import type { Candidate } from '../core/types';
import { CoverageNotice } from './answer/CoverageNotice';
import { NoAnswer } from './answer/NoAnswer';
import { AnswerText } from './answer/AnswerText';
import { BeamTree } from './BeamTree';
import { Segment } from './Segment';

// RAGAS (engineer E's) loads only when an answer is finished, keeping it out of the first page load;
// it measures each finished decode once, after the answer is on screen.
const AnswerMetrics = lazy(() => import('./eval-page/AnswerMetrics').then((m) => ({ default: m.AnswerMetrics })));

export function AnswerView({
  answer,
  onOpenPassage,
  figures,
  onFigures,
  showQuestion = false,
}: {
  answer: AnswerState;
  /** Outside a conversation nothing else on screen says what was asked; a turn heads its answer with it. */
  showQuestion?: boolean;
  onOpenPassage: (c: Pick<Candidate, 'passage' | 'text'>) => void;
  /** RAGAS figures kept with the conversation turn shown, and where new ones go. */
  figures?: Record<string, number | null>;
  onFigures?: (f: Record<string, number | null>) => void;
}) {
  const { tree, ranking } = answer;
  const running = answer.status === 'running';
  // Nothing written was an answer: said so, with the passages, never the model's text as the answer.
  // A stopped answer says only that it stopped: what it would have written next is not known.
  const withheld = answer.status === 'done' || answer.status === 'error' ? noAnswerOf(tree, ranking) : null;
  return (
    <section
      className="answer"
      aria-labelledby="answer-heading"
      aria-busy={running}
      data-status={answer.status}
      data-testid="answer"
    >
      <h2 id="answer-heading">Answer</h2>
      {showQuestion && answer.question && <p className="question">{answer.question}</p>}
      <CoverageNotice answer={answer} />
      {abstainedAtStart(ranking) && (
        <p className="notice" role="status" data-testid="abstained">
          No answer: corrective retrieval (Self-CRAG) found no reliable evidence for this question in your library, so
          it abstained instead of answering from memory.
        </p>
      )}
      {ranking && tree && ranking.best.length > 0 ? (
        <ol className="segments">
          {ranking.best.map((b, d) => (
            <Segment
              key={b.candidate.id}
              depth={d}
              chosen={b}
              siblings={siblingsOf(tree, b.candidate)}
              ranking={ranking}
              changed={answer.changed.includes(d)}
              onOpenPassage={onOpenPassage}
            />
          ))}
        </ol>
      ) : withheld ? (
        <NoAnswer view={withheld} question={answer.question} onOpenPassage={onOpenPassage} />
      ) : (
        !running &&
        answer.status !== 'idle' &&
        answer.status !== 'stopped' && (
          <p className="notice" role="status" data-testid="no-answer">
            {emptyAnswerReason(tree, ranking) ?? 'No segment was finished.'}
          </p>
        )
      )}
      {running && (
        <div className="writing" aria-live="polite">
          <p className="muted">Writing{answer.streaming.length > 1 ? ` ${answer.streaming.length} candidates` : ''}…</p>
          <ul className="streaming">
            {answer.streaming.map((s) => (
              <li key={s.key} data-testid="streaming">
                <AnswerText text={s.text} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {answer.status === 'stopped' && (
        <p className="notice" role="status" data-testid="stopped">
          {ranking && ranking.best.length > 0
            ? 'Stopped. What was finished is shown above.'
            : 'Stopped before any segment was finished. Ask again when ready.'}
        </p>
      )}
      {answer.writer && !running && answer.status !== 'idle' && (
        <p className="muted written-by" data-testid="written-by">
          {writtenBySentence(answer.writer)}
        </p>
      )}
      {answer.error && (
        <p className="error" role="alert">
          {answer.error}
        </p>
      )}
      {answer.status === 'done' && ranking && ranking.best.length > 0 && answer.question && (
        <Suspense fallback={null}>
          <AnswerMetrics
            key={answer.runId}
            question={answer.question}
            ranking={ranking}
            runId={answer.runId}
            stored={figures}
            onMeasured={onFigures}
            when={ragasWhen(answer.writer)}
          />
        </Suspense>
      )}
      {tree && ranking && tree.candidates.length > 0 && !running && <BeamTree tree={tree} ranking={ranking} />}
    </section>
  );
}
