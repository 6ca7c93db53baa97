// What each worker is doing, for the status panel: device and why, models,
// download progress. A store so services can report from anywhere.
import { createStore } from './store';

export type WorkerName = 'evaluator' | 'generator' | 'library';

export interface Progress {
  label: string;
  loaded: number;
  total: number | null;
  startedAt: number;
  /** What loaded/total count (bytes unless said otherwise). */
  unit?: 'bytes' | 'passages' | 'pages';
}

export interface WorkerStatus {
  state: 'idle' | 'loading' | 'ready' | 'error' | 'unavailable';
  device?: string;
  /** Why this device (or why it is unavailable). */
  reason?: string;
  models: string[];
  progress?: Progress;
  error?: string;
  suggestion?: string;
}

export type StatusMap = Record<WorkerName, WorkerStatus>;

/** What a model service's state (the generator's, the evaluator's) keeps for its line. */
export interface ModelLineState {
  phase: WorkerStatus['state'];
  device?: string;
  reason?: string;
  models: string[];
  progress?: Progress;
  error?: string;
  suggestion?: string;
}

/** The status panel's line of a model service, the generator or the evaluator: its state's own fields. */
export function modelLine(s: ModelLineState): WorkerStatus {
  return {
    state: s.phase,
    device: s.device,
    reason: s.reason,
    models: s.models,
    progress: s.progress,
    error: s.error,
    suggestion: s.suggestion,
  };
}

export interface StatusStore {
  get(): StatusMap;
  update(name: WorkerName, patch: Partial<WorkerStatus>): void;
  subscribe(fn: () => void): () => void;
}

const LINE_KEYS = ['state', 'device', 'reason', 'models', 'progress', 'error', 'suggestion'] as const;

/**
 * Keeps `name`'s line equal to `line(state)` of a service's state: each line is one selector over
 * its owner's state, published (every field, so nothing stale stays) whenever what it says changes.
 */
export function followStatus<S>(
  status: StatusStore,
  name: WorkerName,
  source: { get(): S; subscribe(fn: () => void): () => void },
  line: (state: S) => WorkerStatus,
): () => void {
  let shown: WorkerStatus | null = null;
  const publish = () => {
    const next = line(source.get());
    const same = (k: (typeof LINE_KEYS)[number]) =>
      k === 'models' ? next.models.join('\n') === shown!.models.join('\n') : next[k] === shown![k];
    if (shown && LINE_KEYS.every(same)) return;
    shown = next;
    status.update(name, Object.fromEntries(LINE_KEYS.map((k) => [k, next[k]])) as unknown as WorkerStatus);
  };
  return source.subscribe(publish);
}

export function createStatusStore(): StatusStore {
  const store = createStore<StatusMap>({
    evaluator: { state: 'idle', models: [] },
    generator: { state: 'idle', models: [] },
    library: { state: 'idle', models: [] },
  });
  return {
    get: store.get,
    update: (name, patch) => store.set((map) => ({ ...map, [name]: { ...map[name], ...patch } })),
    subscribe: store.subscribe,
  };
}
