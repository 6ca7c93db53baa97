// Which device each worker runs on and why, which models are loaded, progress.
import type { ReactNode } from 'react';
import type { StatusMap, WorkerName } from '../app/state/worker-status';
import { withoutDownloadAdvice } from '../app/view/models-reach';
import { sentences } from '../app/view/sentence';
import { ProgressBar } from './ProgressBar';

const NAMES: Record<WorkerName, string> = {
  evaluator: 'Evaluator (embeddings, relevance, support)',
  generator: 'Generator (language model)',
  library: 'Library index',
};

const STATE_TEXT = {
  idle: 'not started',
  loading: 'loading',
  ready: 'ready',
  error: 'failed',
  unavailable: 'unavailable',
};

export function StatusPanel(props: {
  status: StatusMap;
  generatorCalls: number;
  now: number;
  /** The language model picker, shown under the workers. */
  picker: ReactNode;
  onLoadGenerator: () => void;
  onCancelGenerator: () => void;
  /** Loads the evaluator's models again after they failed to load. */
  onRetryEvaluator?: () => void;
  /** Selects the smallest catalogue model; absent when it is already selected. */
  onSmallerModel?: () => void;
  /** Answers with passages only, which needs no language model. */
  onEvidenceOnly: (reason: string) => void;
  /** The page is in evidence-only mode already: it is not offered again. */
  evidenceOnly: boolean;
  /** The models cannot be downloaded from this network: no advice that needs a download. */
  unreachable: boolean;
}) {
  return (
    <section className="panel status" aria-labelledby="status-heading" data-testid="status">
      <h2 id="status-heading">Status</h2>
      <ul className="workers">
        {(Object.keys(NAMES) as WorkerName[]).map((name) => {
          const s = props.status[name];
          // A worker that failed runs on no device; the device it was meant for is not news.
          const failed = s.state === 'error';
          // In evidence-only mode no model writes: a generator not started is not used. Who would write
          // ("Answers are written by llama.cpp…") and loading it are not said (the mode's notice is the way back).
          const unused = name === 'generator' && props.evidenceOnly && s.state === 'idle';
          return (
            <li key={name} data-worker={name} data-state={s.state} data-device={s.device ?? ''}>
              <strong>{NAMES[name]}</strong>: {unused ? 'not used in evidence-only mode' : STATE_TEXT[s.state]}
              {s.device && !failed && (
                <>
                  {' '}
                  on <span className="device">{s.device.toUpperCase()}</span>
                </>
              )}
              {s.reason && !failed && !unused && <span className="muted"> ({s.reason})</span>}
              {s.models.length > 0 && <div className="muted">Models: {s.models.join(', ')}</div>}
              {s.progress && s.state === 'loading' && <ProgressBar progress={s.progress} now={props.now} />}
              {s.error && (
                <p className="error">
                  {props.unreachable
                    ? withoutDownloadAdvice(sentences(s.error, s.suggestion))
                    : sentences(s.error, s.suggestion)}
                </p>
              )}
              <div className="worker-actions">
                {name === 'evaluator' && s.state === 'error' && props.onRetryEvaluator && (
                  <button type="button" onClick={props.onRetryEvaluator} data-testid="retry-evaluator">
                    Try again
                  </button>
                )}
                {name === 'generator' && s.state === 'loading' && (
                  <button type="button" onClick={props.onCancelGenerator} data-testid="cancel-model">
                    Cancel download
                  </button>
                )}
                {name === 'generator' && ((s.state === 'idle' && !unused) || s.state === 'error') && (
                  <button type="button" onClick={props.onLoadGenerator} data-testid="load-model">
                    {s.state === 'error' ? 'Try loading again' : 'Load the model now'}
                  </button>
                )}
                {name === 'generator' && s.state === 'error' && (
                  <>
                    {props.onSmallerModel && !props.unreachable && (
                      <>
                        {' '}
                        <button type="button" onClick={props.onSmallerModel} data-testid="smaller-model">
                          Use the smallest model
                        </button>
                      </>
                    )}{' '}
                    {!props.evidenceOnly && (
                      <button
                        type="button"
                        onClick={() => props.onEvidenceOnly(s.error ?? 'The language model could not be loaded.')}
                        data-testid="model-evidence-only"
                      >
                        Use evidence-only mode
                      </button>
                    )}
                  </>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {props.picker}
      <p className="muted">
        Model calls this session: <span data-testid="generator-calls">{props.generatorCalls}</span>
      </p>
    </section>
  );
}
