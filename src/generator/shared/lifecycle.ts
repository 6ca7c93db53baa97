// One lifecycle for every engine: idle → loading → ready | failed, load progress and
// cancel, dispose that settles every call in flight, a crash or lost device that leaves
// a clear 'failed' state instead of a stuck page, and cost kept across unloads so the
// page's call count survives a model switch. An engine supplies an EngineDriver.
import type { GeneratorCost } from '../../core/ports';
import type { ModelChoice } from '../catalogue';
import { classifyError, GeneratorError, isFatal } from '../errors';
import type { CompleteRequest, GeneratorHandle, GeneratorHooks, GeneratorState, RunsOn } from '../handle';
import type { LoadProgress } from '../progress';
import type { SelfRagGenerator } from './self-rag';

/** A loaded model: its generator and how to tear it down. */
export interface Session {
  generator: SelfRagGenerator;
  runsOn: RunsOn;
  /** Stops the worker at once. */
  terminate(): void;
  /** Rejects if the engine dies on its own (its worker crashed): calls in flight would never settle. */
  failed?: Promise<never>;
}

export interface EngineDriver {
  readonly modelId: string | undefined;
  readonly native: boolean;
  readonly local: boolean;
  /**
   * Starts the engine and loads the model. On abort it stops what it started and rejects;
   * on any failure it leaves nothing running.
   */
  open(opts: { temperature: number; signal: AbortSignal; onProgress: (p: LoadProgress) => void }): Promise<Session>;
  checkTemperature(temperature: number): void;
  hasModelInCache(choice?: ModelChoice): Promise<boolean>;
  /** Deletes the model's files; `unload` first when that model is the one loaded. */
  deleteModel(choice: ModelChoice | undefined, unload: () => Promise<void>): Promise<void>;
}

/** The driver's session, unless the load is cancelled first; one opened after a cancel is stopped at once. */
async function openUnlessCancelled(
  driver: EngineDriver,
  temperature: number,
  signal: AbortSignal,
  onProgress: (p: LoadProgress) => void,
): Promise<Session> {
  const cancelled = new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => reject(CANCELLED()), { once: true }),
  );
  cancelled.catch(() => {});
  const opened = driver.open({ temperature, signal, onProgress });
  opened.then(
    (s) => signal.aborted && s.terminate(),
    () => {},
  ); // opened after a cancel: nothing stays running
  return Promise.race([opened, cancelled]);
}

export function createHandle(driver: EngineDriver, hooks: GeneratorHooks, initialTemperature: number): GeneratorHandle {
  let state: GeneratorState = 'idle';
  let session: Session | undefined;
  let loading: AbortController | undefined;
  let temperature = initialTemperature;
  const spentBefore: GeneratorCost = { promptTokens: 0, decodedTokens: 0, calls: 0 };
  // Calls in flight when the worker is stopped would wait for ever for its reply.
  let closing = new Set<(e: GeneratorError) => void>();

  const setState = (s: GeneratorState, err?: GeneratorError): void => {
    state = s;
    hooks.onState?.(s, err);
  };

  function close(reason: GeneratorError = UNLOADED()): void {
    if (session) addCost(spentBefore, session.generator.cost());
    session?.terminate();
    session = undefined;
    const waiting = closing;
    closing = new Set();
    waiting.forEach((stop) => stop(reason));
  }

  /** Every port call goes through here. */
  async function use<T>(run: (g: SelfRagGenerator) => Promise<T>): Promise<T> {
    const s = session;
    if (!s || state !== 'ready') throw NOT_LOADED();
    let stop!: (e: GeneratorError) => void;
    const stopped = new Promise<never>((_, reject) => (stop = reject));
    closing.add(stop);
    try {
      return await Promise.race([run(s.generator), stopped, ...(s.failed ? [s.failed] : [])]);
    } catch (err) {
      const e = classifyError(err);
      if (isFatal(e) && session === s) {
        close(e);
        setState('failed', e);
      }
      throw e.kind === 'cancelled' ? err : e;
    } finally {
      closing.delete(stop);
    }
  }

  const handle: GeneratorHandle = {
    get state() {
      return state;
    },
    get modelId() {
      return driver.modelId;
    },
    get native() {
      return driver.native;
    },
    get local() {
      return driver.local;
    },

    async load() {
      if (state === 'ready') return;
      if (state === 'loading')
        throw new GeneratorError('bad-config', 'The model is already loading.', 'Wait for it, or cancel first.');
      setState('loading');
      const ctrl = (loading = new AbortController());
      try {
        session = await openUnlessCancelled(driver, temperature, ctrl.signal, (p) => hooks.onProgress?.(p));
        setState('ready');
      } catch (err) {
        const e = ctrl.signal.aborted ? CANCELLED() : classifyError(err);
        close();
        setState(e.kind === 'cancelled' ? 'idle' : 'failed', e);
        throw e;
      } finally {
        if (loading === ctrl) loading = undefined;
      }
    },

    cancelLoad() {
      loading?.abort();
    },

    hasModelInCache: (c) => driver.hasModelInCache(c),
    deleteModel: (c) => driver.deleteModel(c, () => handle.dispose()),

    setTemperature(t) {
      driver.checkTemperature(t);
      temperature = t;
      session?.generator.setTemperature(t);
    },

    interrupt() {
      session?.generator.interrupt();
    },

    async dispose() {
      handle.cancelLoad();
      close();
      if (state !== 'idle') setState('idle');
    },

    runsOn: () => session?.runsOn,

    decideRetrieval: (req) => use((g) => g.decideRetrieval(req)),
    generateSegments: (reqs) => use((g) => g.generateSegments(reqs)),
    judgePassages: (question, passages, signal) => use((g) => g.judgePassages(question, passages, signal)),
    write: (instruction, opts) => use((g) => g.write(instruction, opts)),
    complete: (req: CompleteRequest) => use((g) => g.complete(req)),
    cost() {
      const total = { ...spentBefore };
      if (session) addCost(total, session.generator.cost());
      return total;
    },
    resetCost() {
      Object.assign(spentBefore, { promptTokens: 0, decodedTokens: 0, calls: 0 });
      session?.generator.resetCost();
    },
  };
  return handle;
}

export function addCost(into: GeneratorCost, c: GeneratorCost): void {
  into.promptTokens += c.promptTokens;
  into.decodedTokens += c.decodedTokens;
  into.calls += c.calls;
}

const UNLOADED = (): GeneratorError =>
  new GeneratorError(
    'cancelled',
    'The language model was unloaded while it was answering.',
    'Load it again to continue.',
  );

const NOT_LOADED = (): GeneratorError =>
  new GeneratorError(
    'bad-config',
    'The language model is not loaded.',
    'Load a model first, or use evidence-only mode.',
  );

const CANCELLED = (): GeneratorError =>
  new GeneratorError(
    'cancelled',
    'Loading the model was cancelled.',
    'Load it again when ready; files already downloaded stay in the browser cache.',
  );
