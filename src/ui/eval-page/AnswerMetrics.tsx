import { useEffect, useMemo, useRef, useState } from 'react';
import { getServices, type Services } from '../../app/wiring/services';
import type { Ranking } from '../../core/types';
import {
  answerForMetrics,
  createMetricsSession,
  type MetricsSession,
  type MetricsView,
} from '../../eval-runner/answer-metrics';
import { ragasPorts } from '../../eval-runner/connect';
import './eval.css';

const fmt = (v: number | null) => (v === null ? 'n/a' : v.toFixed(2));

/**
 * RAGAS metrics beside a finished answer. Mount it once the answer is shown: each finished
 * decode (`runId`) is measured once, automatically, without holding the answer back, and
 * unmounting (a new question) cancels it. A re-rank that picks other segments calls no
 * model: the figures stay, marked as belonging to the earlier answer, with a button to
 * measure the one now shown.
 */
/** Figures kept with a conversation's turn: shown again without measuring when the turn is reopened. */
export type StoredFigures = Record<string, number | null>;

export function AnswerMetrics({
  question,
  ranking,
  runId,
  services,
  stored,
  onMeasured,
}: {
  question: string;
  ranking: Ranking;
  runId: number;
  services?: Services;
  stored?: StoredFigures;
  onMeasured?: (figures: StoredFigures) => void;
}) {
  const input = useMemo(() => answerForMetrics(question, ranking), [question, ranking]);
  const [view, setView] = useState<MetricsView>({ measured: null, stale: false, calls: 0 });
  const session = useRef<MetricsSession | null>(null);

  useEffect(() => {
    const s = createMetricsSession(() => ragasPorts(services ?? getServices()), setView);
    session.current = s;
    return () => {
      s.dispose();
      session.current = null;
    };
  }, [services]);

  const [useStored, setUseStored] = useState(stored !== undefined);
  useEffect(() => {
    if (useStored) return;
    // A macrotask later, so the finished answer is painted before any measuring starts.
    const timer = setTimeout(() => session.current?.show(runId, input), 0);
    return () => clearTimeout(timer);
  }, [runId, input, useStored]);

  const state = view.measured?.state ?? null;
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (state?.status !== 'done' || view.stale || reported.current === state) return;
    reported.current = state;
    onMeasured?.({
      faithfulness: state.report.faithfulness.score,
      answerRelevance: state.report.answerRelevance.score,
      contextRelevance: state.report.contextRelevance.score,
    });
  }, [state, view.stale, onMeasured]);

  if (useStored && stored) {
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
        <button type="button" onClick={() => setUseStored(false)} data-testid="measure-again">
          Measure again
        </button>
      </aside>
    );
  }
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
      {state?.status === 'done' && (
        <>
          <dl>
            <dt>Faithfulness</dt>
            <dd data-metric="faithfulness">
              {fmt(state.report.faithfulness.score)}
              {state.report.faithfulness.statements.length > 0 &&
                ` (${state.report.faithfulness.statements.length - state.report.faithfulness.unsupported.length} of ${state.report.faithfulness.statements.length} statements supported)`}
            </dd>
            <dt>Answer relevance</dt>
            <dd data-metric="answerRelevance">
              {fmt(state.report.answerRelevance.score)}
              {state.report.answerRelevance.noncommittal && ' (judged noncommittal: the answer evades the question)'}
            </dd>
            <dt>Context relevance</dt>
            <dd data-metric="contextRelevance">
              {fmt(state.report.contextRelevance.score)}
              {state.report.contextRelevance.totalSentences > 0 &&
                ` (${state.report.contextRelevance.extracted.length} of ${state.report.contextRelevance.totalSentences} context sentences needed)`}
            </dd>
          </dl>
          {state.report.faithfulness.unsupported.length > 0 && (
            <details>
              <summary>Unsupported statements</summary>
              <ul>
                {state.report.faithfulness.unsupported.map((s, i) => (
                  <li key={i}>{s}</li>
                ))}
              </ul>
            </details>
          )}
          <p className="muted">
            Computed by{' '}
            {[
              ...new Set([
                ...state.report.faithfulness.models,
                ...state.report.answerRelevance.models,
                ...state.report.contextRelevance.models,
              ]),
            ].join(', ')}
            .
          </p>
        </>
      )}
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
