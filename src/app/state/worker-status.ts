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

export interface StatusStore {
  get(): StatusMap;
  update(name: WorkerName, patch: Partial<WorkerStatus>): void;
  subscribe(fn: () => void): () => void;
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
