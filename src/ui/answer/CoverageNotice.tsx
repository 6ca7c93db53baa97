// With the answer (or passages) of a question searched while part of the library was still
// waiting for its vectors: how much search by meaning reached; the rest was found by its words.
import type { AnswerState } from '../../app/state/answer';
import { coverageNotice } from '../../app/view/meaning-coverage';

export function CoverageNotice({ answer }: { answer: Pick<AnswerState, 'coverage'> }) {
  const text = coverageNotice(answer.coverage);
  if (!text || !answer.coverage) return null;
  return (
    <p
      className="muted"
      data-testid="meaning-coverage"
      data-embedded={answer.coverage.embedded}
      data-total={answer.coverage.total}
    >
      {text}
    </p>
  );
}
