// Which device each worker runs on and why, which models are loaded, progress.
import type { StatusMap, WorkerName } from '../app/status';
import { CATALOGUE } from '../generator/catalogue';
import { ProgressBar } from './ProgressBar';

const NAMES: Record<WorkerName, string> = {
  evaluator: 'Evaluator (embeddings, relevance, support)',
  generator: 'Generator (language model)',
  library: 'Library index',
};

const STATE_TEXT = { idle: 'not started', loading: 'loading', ready: 'ready', error: 'failed', unavailable: 'unavailable' };

export function StatusPanel(props: {
  status: StatusMap;
  generatorCalls: number;
  now: number;
  model: string;
  onModel: (id: string) => void;
  onLoadGenerator: () => void;
  onCancelGenerator: () => void;
}) {
  const generatorState = props.status.generator.state;
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
              {name === 'generator' && s.state === 'loading' && (
                <button type="button" onClick={props.onCancelGenerator} data-testid="cancel-model">
                  Cancel download
                </button>
              )}
              {name === 'generator' && (s.state === 'idle' || s.state === 'error') && (
                <button type="button" onClick={props.onLoadGenerator}>
                  {s.state === 'error' ? 'Try loading again' : 'Load the model now'}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <div className="select">
        <label htmlFor="model">Language model</label>
        <select
          id="model"
          value={props.model}
          disabled={generatorState === 'loading'}
          onChange={(e) => props.onModel(e.target.value)}
          data-testid="model"
        >
          {CATALOGUE.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label} · about {Math.round(m.builds.f32.vramMB / 100) / 10} GB
            </option>
          ))}
        </select>
      </div>
      <p className="muted">
        Model calls this session: <span data-testid="generator-calls">{props.generatorCalls}</span>
      </p>
    </section>
  );
}
