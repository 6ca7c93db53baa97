// One evaluator model that never stays broken on WebGPU: if it fails to load or to run
// there, it is rebuilt on WASM, the call is retried, and the move is reported (a GPU
// driver can mis-run one graph while the others work, so this is per model).
// A failure that WASM repeats (missing file, bad input) is not the device's fault: the
// model keeps its device and the caller gets the error.
// A load that failed everywhere (the hub cannot be reached, no pack) is remembered: later calls
// get the same error at once instead of fetching the model again on every call (ingestion
// embeds in batches), until `retry()`. Concurrent callers share one load.
// Pure: the client decides what "a model on a device" is (see client.ts).
import { errorMessage, isAbort } from '../core/errors';
import type { EvaluatorDevice, EvaluatorDeviceCallback, EvaluatorModelRole, ModelDeviceReport } from './config';

export interface DeviceModel {
  ready(): Promise<void>;
  dispose(): Promise<void>;
}

export interface FallbackModel<M extends DeviceModel> {
  ready(): Promise<void>;
  /** Runs `work` on the model, moving it to WASM and retrying once if WebGPU fails. */
  run<T>(work: (model: M) => Promise<T>): Promise<T>;
  /** Forgets a failed load, so the next call loads the model again (the user chose Try again). */
  retry(): void;
  report(): ModelDeviceReport;
  dispose(): Promise<void>;
}

export const ROLE_LABELS: Record<EvaluatorModelRole, string> = {
  embedder: 'Embedder',
  reranker: 'Cross-encoder',
  nli: 'NLI',
};

/** The WASM model once `retry` succeeds on it; else it is let go, with an error that says both failures. */
async function onWasm<M extends DeviceModel>(
  candidate: M,
  error: unknown,
  retry: (m: M) => Promise<unknown>,
): Promise<M> {
  try {
    await retry(candidate);
  } catch (wasmError) {
    await candidate.dispose().catch(() => undefined);
    const a = errorMessage(error);
    const b = errorMessage(wasmError);
    throw new Error(a === b ? b : `${b} (it had failed on WebGPU first: ${a})`);
  }
  return candidate;
}

export function withFallback<M extends DeviceModel>(opts: {
  role: EvaluatorModelRole;
  model: string;
  device: EvaluatorDevice;
  reason: string;
  make: (device: EvaluatorDevice) => M;
  onReport?: EvaluatorDeviceCallback;
}): FallbackModel<M> {
  let current = opts.make(opts.device);
  let state: ModelDeviceReport = {
    role: opts.role,
    model: opts.model,
    device: opts.device,
    reason: opts.reason,
    loaded: false,
  };
  // Concurrent calls that fail on the same WebGPU model share one move to WASM.
  let moving: Promise<M> | undefined;
  // The load under way, shared by every caller until it settles.
  let loading: Promise<M> | undefined;
  // The error of the last load, if it failed; `generation` lets a retry outrank a load it did not start.
  let failed: { error: unknown } | undefined;
  let generation = 0;
  let disposed = false;

  const set = (patch: Partial<ModelDeviceReport>) => {
    state = { ...state, ...patch };
    opts.onReport?.(state);
  };

  async function moveToWasm(failed: M, error: unknown, retry: (m: M) => Promise<unknown>): Promise<M> {
    if (failed !== current) return current;
    moving ??= (async () => {
      const candidate = await onWasm(opts.make('wasm'), error, retry);
      if (disposed) {
        await candidate.dispose().catch(() => undefined);
        throw new Error(`The ${ROLE_LABELS[opts.role]} model was disposed.`);
      }
      current = candidate;
      await failed.dispose().catch(() => undefined);
      const why = errorMessage(error);
      set({
        device: 'wasm',
        loaded: true,
        fellBackFrom: 'webgpu',
        error: why,
        reason: `${ROLE_LABELS[opts.role]} fell back to WASM: ${why}`,
      });
      return candidate;
    })().finally(() => {
      moving = undefined;
    });
    return moving;
  }

  async function attempt(): Promise<M> {
    if (moving) return moving;
    const m = current;
    try {
      await m.ready();
    } catch (e) {
      if (m !== current) return attempt();
      if (state.device !== 'webgpu' || isAbort(e)) throw e;
      return moveToWasm(m, e, (c) => c.ready());
    }
    if (!state.loaded && m === current) set({ loaded: true });
    return m;
  }

  function ready(): Promise<M> {
    if (failed) return Promise.reject(failed.error);
    if (moving) return moving;
    if (!loading) {
      const started = generation;
      loading = attempt()
        .catch((e: unknown) => {
          if (!isAbort(e) && started === generation) failed = { error: e };
          throw e;
        })
        .finally(() => {
          loading = undefined;
        });
    }
    return loading;
  }

  return {
    ready: async () => void (await ready()),
    async run<T>(work: (model: M) => Promise<T>): Promise<T> {
      const m = await ready();
      try {
        return await work(m);
      } catch (e) {
        if (isAbort(e)) throw e;
        if (m !== current) return work(current);
        if (state.device !== 'webgpu') throw e;
        let out: { value: T } | undefined;
        const moved = await moveToWasm(m, e, async (c) => {
          await c.ready();
          out = { value: await work(c) };
        });
        // Without `out`, another call's move was joined: run on the model it produced.
        return out ? out.value : work(moved);
      }
    },
    retry() {
      generation++;
      failed = undefined;
    },
    report: () => state,
    async dispose() {
      disposed = true;
      await current.dispose();
    },
  };
}
