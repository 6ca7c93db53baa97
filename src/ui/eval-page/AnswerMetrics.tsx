// RAGAS metrics beside a finished answer (useMetricsSession measures it). A re-rank that picks
// other segments calls no model: the figures stay, marked as belonging to the earlier answer, with
// a button to measure the one now shown. A reopened turn shows the figures kept with it.
import { useState } from 'react';
import type { RagasWhen } from '../../app/view/ragas-when';
import type { Ranking } from '../../core/types';
import type { MetricsView } from '../../eval-runner/answer-metrics';
import './eval.css';
import { useMetricsSession } from './hooks';

const fmt = (v: number | null) => (v === null ? 'n/a' : v.toFixed(2));

/** Figures kept with a conversation's turn: shown again without measuring when the turn is reopened. */
export type StoredFigures = Record<string, number | null>;

type Measured = NonNullable<MetricsView['measured']>['state'];
type Report = Extract<Measured, { status: 'done' }>['report'];

function StoredMetrics({ stored, onMeasure }: { stored: StoredFigures; onMeasure: () => void }) {
  return (
    <aside
      className="answer-metrics"
      aria-label="Answer quality (RAGAS)"
      data-testid="answer-metrics"
      data-status="stored"
    >
      <h3>Answer quality (RAGAS)</h3>
      <dl>
        <dt>Faithfulness</dt>
        <dd data-metric="faithfulness">{fmt(stored.faithfulness ?? null)}</dd>
        <dt>Answer relevance</dt>
        <dd data-metric="answerRelevance">{fmt(stored.answerRelevance ?? null)}</dd>
        <dt>Context relevance</dt>
        <dd data-metric="contextRelevance">{fmt(stored.contextRelevance ?? null)}</dd>
      </dl>
      <p className="muted">Measured when this turn was written.</p>
      <button type="button" onClick={onMeasure} data-testid="measure-again">
        Measure again
      </button>
    </aside>
  );
}

/** A check that runs on request (on the CPU): what it costs, and the button that starts it. */
function OfferedMetrics({ onMeasure }: { onMeasure: () => void }) {
  return (
    <aside
      className="answer-metrics"
      aria-label="Answer quality (RAGAS)"
      data-testid="answer-metrics"
      data-status="offered"
    >
      <h3>Answer quality (RAGAS)</h3>
      <p className="muted">
        This answer was written on the CPU, where the check takes longer than the answer itself, so it runs only when
        you ask. A new question cancels it.
      </p>
      <button type="button" onClick={onMeasure} data-testid="ragas-check">
        Measure faithfulness and relevance
      </button>
    </aside>
  );
}

/** The three figures of a finished measurement, with what they rest on and which models computed them. */
function MeasuredFigures({ report }: { report: Report }) {
  const { faithfulness, answerRelevance, contextRelevance } = report;
  return (
    <>
      <dl>
        <dt>Faithfulness</dt>
        <dd data-metric="faithfulness">
          {fmt(faithfulness.score)}
          {faithfulness.statements.length > 0 &&
            ` (${faithfulness.statements.length - faithfulness.unsupported.length} of ${faithfulness.statements.length} statements supported)`}
        </dd>
        <dt>Answer relevance</dt>
        <dd data-metric="answerRelevance">
          {fmt(answerRelevance.score)}
          {answerRelevance.noncommittal && ' (judged noncommittal: the answer evades the question)'}
        </dd>
        <dt>Context relevance</dt>
        <dd data-metric="contextRelevance">
          {fmt(contextRelevance.score)}
          {contextRelevance.totalSentences > 0 &&
            ` (${contextRelevance.extracted.length} of ${contextRelevance.totalSentences} context sentences needed)`}
        </dd>
      </dl>
      {faithfulness.unsupported.length > 0 && (
        <details>
          <summary>Unsupported statements</summary>
          <ul>
            {faithfulness.unsupported.map((s, i) => (
              <li key={i}>{s}</li>
            ))}
          </ul>
        </details>
      )}
      <p className="muted">
        Computed by{' '}
        {[...new Set([...faithfulness.models, ...answerRelevance.models, ...contextRelevance.models])].join(', ')}.
      </p>
    </>
  );
}

export function AnswerMetrics(props: {
  question: string;
  ranking: Ranking;
  runId: number;
  stored?: StoredFigures;
  onMeasured?: (figures: StoredFigures) => void;
  /** After each answer, or only when the reader asks (app/view/ragas-when.ts). */
  when?: RagasWhen;
}) {
  const [useStored, setUseStored] = useState(props.stored !== undefined);
  const [asked, setAsked] = useState(false);
  const held = props.when === 'on-request' && !asked;
  const { view, state, session } = useMetricsSession({ ...props, useStored, held });
  if (useStored && props.stored)
    return (
      <StoredMetrics
        stored={props.stored}
        onMeasure={() => {
          setAsked(true);
          setUseStored(false);
        }}
      />
    );
  if (held) return <OfferedMetrics onMeasure={() => setAsked(true)} />;
  const { stale } = view;
  return (
    <aside
      className="answer-metrics"
      aria-label="Answer quality (RAGAS)"
      data-testid="answer-metrics"
      data-status={state?.status ?? 'idle'}
      data-stale={stale}
    >
      <h3>Answer quality (RAGAS)</h3>
      {stale && (
        <p className="notice" data-testid="metrics-stale">
          {state?.status === 'running' ? 'Measuring' : 'These figures are for'} the answer shown before the weights
          changed, not the one above.
        </p>
      )}
      {(state === null || state.status === 'running') && (
        <p className="muted" aria-live="polite">
          Measuring faithfulness and relevance…{' '}
          <button type="button" onClick={() => session.current?.cancel()} disabled={state === null}>
            Cancel
          </button>
        </p>
      )}
      {state?.status === 'cancelled' && <p className="muted">Measuring was cancelled.</p>}
      {state?.status === 'failed' && <p className="muted">Could not measure this answer: {state.message}</p>}
      {state?.status === 'done' && <MeasuredFigures report={state.report} />}
      {(stale || state?.status === 'cancelled' || state?.status === 'failed') && (
        <button type="button" onClick={() => session.current?.measureShown()} data-testid="measure-again">
          {stale ? 'Measure this answer' : 'Measure faithfulness and relevance'}
        </button>
      )}
      <p className="muted">
        Model calls for these figures: <span data-testid="metrics-calls">{view.calls}</span>
      </p>
    </aside>
  );
}
