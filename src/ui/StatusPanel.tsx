// Which device each worker runs on and why, which models are loaded, progress.
import type { StatusMap, WorkerName } from '../app/status';
import { ProgressBar } from './ProgressBar';

const NAMES: Record<WorkerName, string> = {
  evaluator: 'Evaluator (embeddings, relevance, support)',
  generator: 'Generator (language model)',
  library: 'Library index',
};

const STATE_TEXT = { idle: 'not started', loading: 'loading', ready: 'ready', error: 'failed', unavailable: 'unavailable' };

export function StatusPanel(props: { status: StatusMap; generatorCalls: number; now: number; onLoadGenerator: () => void }) {
  return (
    <section className="panel status" aria-labelledby="status-heading" data-testid="status">
      <h2 id="status-heading">Status</h2>
      <ul className="workers">
        {(Object.keys(NAMES) as WorkerName[]).map((name) => {
          const s = props.status[name];
          return (
            <li key={name} data-worker={name} data-state={s.state} data-device={s.device ?? ''}>
              <strong>{NAMES[name]}</strong>: {STATE_TEXT[s.state]}
              {s.device && (
                <>
                  {' '}
                  on <span className="device">{s.device.toUpperCase()}</span>
                </>
              )}
              {s.reason && <span className="muted"> ({s.reason})</span>}
              {s.models.length > 0 && <div className="muted">Models: {s.models.join(', ')}</div>}
              {s.progress && s.state === 'loading' && <ProgressBar progress={s.progress} now={props.now} />}
              {s.error && (
                <p className="error">
                  {s.error} {s.suggestion}
                </p>
              )}
              {name === 'generator' && s.state === 'idle' && (
                <button type="button" onClick={props.onLoadGenerator}>
                  Load the model now
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <p className="muted">
        Model calls this session: <span data-testid="generator-calls">{props.generatorCalls}</span>
      </p>
    </section>
  );
}
