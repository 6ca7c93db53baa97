// The evaluator (embedder, cross-encoder, NLI in their worker) as a service: started on first
// use, started or reloaded again on Try again, and its line in the status panel, derived here
// from what the evaluator reports (its start, each model's progress, its devices, the embedder's
// load). No setting changes it today, so it follows none; the embedder it resolved is
// `embedderId` (vectors are matched against a pre-built index by it).
import type { Evaluator } from '../../evaluator/client';
import type { EvaluatorProgress } from '../../evaluator/config';
import type { StatusStore, WorkerStatus } from '../state/worker-status';
import { lazy } from './lazy';

/** How the evaluator is started: the real one (services.ts) or a test's. */
export interface EvaluatorStarter {
  start(report: {
    onProgress(p: EvaluatorProgress): void;
    onDevice(): void;
  }): Promise<{ evaluator: Evaluator; embedderModel: string }>;
  /** The panel's device line for what the evaluator runs on. */
  devices(ev: Evaluator): { device: string; reason: string };
}

export interface EvaluatorService {
  evaluator(): Promise<Evaluator>;
  /** Starts it again if it did not start, else reloads its failed models; true once the embedder runs. */
  retry(): Promise<boolean>;
  /** `source:model` of the embedder in use, once started. */
  embedderId(): Promise<string | undefined>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function embedderFailed(model: string, e: unknown): Partial<WorkerStatus> {
  return {
    // The worker's message usually names the model and the reason already ("Could not load the embedding model …").
    error: /^could not load/i.test(message(e))
      ? message(e)
      : `The embedding model ${model} could not load: ${message(e)}`,
    suggestion:
      'It is not fetched again on every call. Documents are still added and found by their words, marked "not embedded yet"; choose Try again once the model can be reached, and they are embedded then.',
  };
}

const startFailed = (e: unknown): Partial<WorkerStatus> =>
  e instanceof Error
    ? { error: e.message, suggestion: (e as Error & { suggestion?: string }).suggestion }
    : { error: String(e) };

export function createEvaluatorService(status: StatusStore, starter: EvaluatorStarter): EvaluatorService {
  const report = (patch: Partial<WorkerStatus>) => status.update('evaluator', patch);
  const startedAt = new Map<string, number>();
  let embedderId: string | undefined;
  let embedderModel = '';

  // Ready means the embedder runs: documents cannot be embedded or searched by meaning without it.
  const loadEmbedder = async (ev: Evaluator): Promise<boolean> => {
    report({ state: 'loading', error: undefined, suggestion: undefined, ...starter.devices(ev) });
    try {
      await ev.preload(['embedder']);
      report({ state: 'ready', ...starter.devices(ev), progress: undefined });
      return true;
    } catch (e) {
      report({ state: 'error', ...embedderFailed(embedderModel, e), progress: undefined });
      return false;
    }
  };

  let embedderLoad: Promise<boolean> = Promise.resolve(false);
  const evaluator = lazy(async () => {
    report({ state: 'loading' });
    let ev: Evaluator | undefined;
    try {
      const started = await starter.start({
        onProgress(p) {
          if (!startedAt.has(p.role)) startedAt.set(p.role, Date.now());
          const name = `${p.role}: ${p.model}${ev?.source.source === 'local' ? ' (local pack)' : ''}`;
          const models = status.get().evaluator.models;
          report(
            p.status === 'ready'
              ? { progress: undefined, models: [...new Set([...models, name])] }
              : {
                  progress: {
                    label: `${p.role}: ${p.model}${p.file ? ` (${p.file})` : ''}`,
                    loaded: p.loadedBytes,
                    total: p.totalBytes > 0 ? p.totalBytes : null,
                    startedAt: startedAt.get(p.role)!,
                  },
                  models,
                },
          );
        },
        // A model that fails on WebGPU moves to WASM on its own; the panel says which and why.
        onDevice() {
          if (ev) report(starter.devices(ev));
        },
      });
      ev = started.evaluator;
      embedderModel = started.embedderModel;
      // The source found ('auto' resolved), so vectors match a pre-built index made from the hub or a pack.
      embedderId = `${ev.source.source}:${embedderModel}`;
      embedderLoad = loadEmbedder(ev);
      return ev;
    } catch (e) {
      report({ state: 'error', ...startFailed(e), progress: undefined });
      throw e;
    }
  });

  return {
    evaluator,
    async retry() {
      const ev = await evaluator().catch(() => null);
      if (ev) {
        ev.retry();
        return loadEmbedder(ev);
      }
      evaluator.reset();
      // Started again, it loads the embedder itself.
      if (!(await evaluator().catch(() => null))) return false;
      return embedderLoad;
    },
    async embedderId() {
      await evaluator();
      return embedderId;
    },
  };
}
