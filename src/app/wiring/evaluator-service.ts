// The evaluator (embedder, cross-encoder, NLI in their worker) as a service: the effects around
// state/evaluator.ts. Started on first use, started or reloaded again on Try again; what the
// evaluator reports goes into the state, and the status panel's line (`modelLine`) is published
// as it changes. No setting changes it today, so it follows none; the embedder it resolved is
// `embedderId` (vectors are matched against a pre-built index by it).
import { errorMessage } from '../../core/errors';
import type { Evaluator } from '../../evaluator/client';
import type { EvaluatorProgress } from '../../evaluator/config';
import { createActionStore, type ActionStore } from '../state/action-store';
import {
  evaluatorReducer,
  initialEvaluator,
  type Devices,
  type EvaluatorAction,
  type EvaluatorState,
} from '../state/evaluator';
import { followStatus, modelLine, type StatusStore } from '../state/worker-status';
import { lazy } from './lazy';

/** How the evaluator is started: the real one (services.ts) or a test's. */
export interface EvaluatorStarter {
  start(report: {
    onProgress(p: EvaluatorProgress): void;
    onDevice(): void;
  }): Promise<{ evaluator: Evaluator; embedderModel: string }>;
  /** The panel's device line for what the evaluator runs on. */
  devices(ev: Evaluator): Devices;
}

export interface EvaluatorService {
  evaluator(): Promise<Evaluator>;
  /** Starts it again if it did not start, else reloads its failed models; true once the embedder runs. */
  retry(): Promise<boolean>;
  /** `source:model` of the embedder in use, once started. */
  embedderId(): Promise<string | undefined>;
}

function embedderFailed(model: string, e: unknown): EvaluatorAction {
  return {
    type: 'embedderFailed',
    // The worker's message usually names the model and the reason already ("Could not load the embedding model …").
    error: /^could not load/i.test(errorMessage(e))
      ? errorMessage(e)
      : `The embedding model ${model} could not load: ${errorMessage(e)}`,
    suggestion:
      'It is not fetched again on every call. Documents are still added and found by their words, marked "not embedded yet"; choose Try again once the model can be reached, and they are embedded then.',
  };
}

/** Loads the embedder: the evaluator counts as ready once it runs. */
async function loadEmbedder(
  state: ActionStore<EvaluatorState, EvaluatorAction>,
  starter: EvaluatorStarter,
  ev: Evaluator,
  model: string,
): Promise<boolean> {
  state.dispatch({ type: 'embedderLoading', devices: starter.devices(ev) });
  try {
    await ev.preload(['embedder']);
    state.dispatch({ type: 'embedderReady', devices: starter.devices(ev) });
    return true;
  } catch (e) {
    state.dispatch(embedderFailed(model, e));
    return false;
  }
}

export function createEvaluatorService(status: StatusStore, starter: EvaluatorStarter): EvaluatorService {
  const state = createActionStore(evaluatorReducer, initialEvaluator);
  followStatus(status, 'evaluator', state, modelLine);
  let embedderId: string | undefined;
  let embedderLoad: Promise<boolean> = Promise.resolve(false);
  let embedderModel = '';

  const evaluator = lazy(async () => {
    state.dispatch({ type: 'starting' });
    let ev: Evaluator | undefined;
    try {
      const started = await starter.start({
        onProgress(p) {
          const at = Date.now();
          if (p.status === 'ready') {
            const loaded = `${p.role}: ${p.model}${ev?.source.source === 'local' ? ' (local pack)' : ''}`;
            return state.dispatch({ type: 'modelProgressed', role: p.role, at, loaded });
          }
          const label = `${p.role}: ${p.model}${p.file ? ` (${p.file})` : ''}`;
          const total = p.totalBytes > 0 ? p.totalBytes : null;
          state.dispatch({
            type: 'modelProgressed',
            role: p.role,
            at,
            progress: { label, loaded: p.loadedBytes, total },
          });
        },
        // A model that fails on WebGPU moves to WASM on its own; the panel says which and why.
        onDevice() {
          if (ev) state.dispatch({ type: 'devicesChanged', devices: starter.devices(ev) });
        },
      });
      ev = started.evaluator;
      embedderModel = started.embedderModel;
      // The source found ('auto' resolved), so vectors match a pre-built index made from the hub or a pack;
      // a pack's model named by the hub model it mirrors, so its vectors still count at an address without the pack.
      embedderId = `${ev.source.source}:${ev.source.embedderIs ?? embedderModel}`;
      embedderLoad = loadEmbedder(state, starter, ev, embedderModel);
      return ev;
    } catch (e) {
      const suggestion = e instanceof Error ? (e as Error & { suggestion?: string }).suggestion : undefined;
      state.dispatch({ type: 'startFailed', error: errorMessage(e), ...(suggestion ? { suggestion } : {}) });
      throw e;
    }
  });

  return {
    evaluator,
    async retry() {
      const ev = await evaluator().catch(() => null);
      if (ev) {
        ev.retry();
        return loadEmbedder(state, starter, ev, embedderModel);
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
