import { useEffect, useMemo, useState } from 'react';
import { getServices, type Services } from '../../app/services';
import type { Ranking } from '../../core/types';
import { answerForMetrics, measureAnswer, type MetricsState } from './answer-metrics';
import { ragasPorts } from './connect';
import './eval.css';

const fmt = (v: number | null) => (v === null ? 'n/a' : v.toFixed(2));

/**
 * RAGAS metrics beside a finished answer. Mount it only once the answer is shown; it never
 * holds the answer back and is cancelled when the answer changes or the component goes away.
 * It waits for the user's click unless `auto`: the metrics cost several generator calls, and
 * re-ranking must stay free of model calls.
 */
export function AnswerMetrics({ question, ranking, services, auto = false }: { question: string; ranking: Ranking; services?: Services; auto?: boolean }) {
  const input = useMemo(() => answerForMetrics(question, ranking), [question, ranking]);
  // Identity of the answer being measured: a re-rank that keeps the same text and citations
  // must not restart (and so cancel) the measurement; a different answer starts afresh.
  const key = `${input.question}\u0000${input.answer}\u0000${input.contexts.map((c) => c.id).join(',')}`;
  const [requestedKey, setRequestedKey] = useState<string | null>(null);
  const [result, setResult] = useState<{ key: string; state: MetricsState } | null>(null);
  const requested = auto || requestedKey === key;
  const state = result?.key === key ? result.state : null;
  useEffect(() => {
    if (!requested) return;
    if (!input.answer) {
      setResult({ key, state: { status: 'failed', message: 'There is no answer text to measure.' } });
      return;
    }
    const s = services ?? getServices();
    return measureAnswer(input, () => ragasPorts(s), (st) => setResult({ key, state: st }));
  }, [key, services, requested]);

  return (
    <aside className="answer-metrics" aria-label="Answer quality (RAGAS)" data-testid="answer-metrics" data-status={state?.status ?? 'idle'}>
      <h3>Answer quality (RAGAS)</h3>
      {(state === null || state.status === 'cancelled') && (
        <button type="button" onClick={() => setRequestedKey(key)} disabled={requested && state === null}>
          Measure faithfulness and relevance
        </button>
      )}
      {state?.status === 'running' && <p className="muted">Measuring faithfulness and relevance…</p>}
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
            <dd data-metric="answerRelevance">{fmt(state.report.answerRelevance.score)}</dd>
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
            Computed by {[...new Set([...state.report.faithfulness.models, ...state.report.answerRelevance.models, ...state.report.contextRelevance.models])].join(', ')}.
          </p>
        </>
      )}
    </aside>
  );
}
