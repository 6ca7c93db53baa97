// The page's state and intents, framework-free so it can be tested in Node with
// fake ports. React subscribes with useSyncExternalStore; the UI only renders
// this state and calls these methods.
import type { Corrector, Critic, Generator, RelProbs, Retriever } from '../../core/ports';
import type { DecodeEvent, DecodeResult, DecodeSettings, RankSettings, Ranking, AnswerTree } from '../../core/types';
import {
  applyEvent,
  applyRank,
  failRun,
  finishRun,
  initialAnswerState,
  startRun,
  type AnswerState,
} from '../state/answer';
import type { IndexChoice } from '../../vector/vector-index';
import type { RetrievalSettings } from '../../core/hybrid';
import type { CustomModel } from '../../generator/catalogue';
import { CUSTOM_MODEL_KEY } from '../persist/custom-model';
import { createStore } from '../state/store';
import { questionWithHistory } from '../../core/conversation/history';
import { sanitizeEngineChoice, type EngineChoice } from '../state/engine-choice';
import {
  cragProblem,
  defaultSettings,
  saveSettings,
  sanitizeSettings,
  decodeChanges,
  type AppSettings,
  type CragChoice,
  type DecodeKey,
  type Theme,
} from '../persist/settings';

export type DecodeFn = (
  question: string,
  ports: { generator: Generator; retriever: Retriever; critic?: Critic; corrector?: Corrector },
  settings: DecodeSettings,
  rank: RankSettings,
  opts: { signal?: AbortSignal; onEvent?: (e: DecodeEvent) => void },
) => Promise<DecodeResult>;
export type RerankFn = (tree: AnswerTree, rank: RankSettings) => Ranking;

/** What the controller needs from the services; each may fail with a message the user reads. */
export interface AnswerPorts {
  generator(): Promise<Generator>;
  /** The library's retriever searching as the settings say (words, meaning or both; re-rank or not). */
  retriever(settings?: RetrievalSettings): Promise<Retriever>;
  critic(): Promise<Critic | undefined>;
  /** Self-CRAG's corrector, built on the same generator, retriever and evaluator, with the user's CRAG settings. */
  corrector?(crag: CragChoice): Promise<Corrector>;
  /** Stops a generation in flight at once (the abort signal alone waits for the engine). */
  interrupt?(): void;
}

/** How a turn of a conversation is asked: the query retrieval uses and the earlier turns the generator sees. */
export interface AskOptions {
  /** The standalone search query (a follow-up's rewrite, the user's edit of it, or the joined questions). */
  query?: string;
  /** Earlier turns as text, put before the question in the generator's prompts. */
  context?: string;
}

export interface AppState {
  settings: AppSettings;
  answer: AnswerState;
  /** Set when no written answer is possible; the page then shows passages. */
  evidenceOnly: { reason: string } | null;
  /** Calls made to the generator since the page loaded (decideRetrieval + generateSegments). */
  generatorCalls: number;
  /** How long the last weight change took to re-rank the stored tree. */
  lastRerankMs: number | null;
}

export interface Controller {
  getState(): AppState;
  subscribe(fn: () => void): () => void;
  ask(question: string, opts?: AskOptions): Promise<void>;
  stop(): void;
  /** Shows a stored answer (a past turn) re-ranked with today's weights; ignored while an answer is running. */
  view(answer: AnswerState): void;
  setRank(rank: RankSettings): void;
  setDecode(decode: DecodeSettings): void;
  setCorrective(on: boolean): void;
  /** Applies CRAG settings that can work; otherwise keeps the old ones and returns why not. */
  setCrag(crag: CragChoice): string | null;
  setIndexKind(kind: IndexChoice): void;
  /** Words, meaning or both, and the cross-encoder's re-rank: used by the next question. */
  setRetrieval(r: RetrievalSettings): void;
  /** A catalogue id, or 'custom' for the stored custom model. */
  setModel(id: string): void;
  /** Stores a checked custom model and selects it. */
  setCustomModel(model: CustomModel): void;
  /** Stores the engine and GGUF model the user picked. */
  setEngine(engine: EngineChoice): void;
  setTemperature(t: number): void;
  /**
   * Sets one setting, checked by the same sanitiser that reads stored and linked settings (a value
   * it refuses leaves the current one). A new setting needs no setter of its own: it is declared
   * once in persist/settings.ts (field, default, sanitiser line), and whatever uses it reads or
   * follows the settings (services follow them through `services.follow`).
   */
  setSetting<K extends keyof AppSettings>(key: K, value: AppSettings[K]): void;
  setTheme(theme: Theme): void;
  /** Whether files added from now on are kept beside their documents. */
  setKeepOriginals(on: boolean): void;
  /**
   * The embedding page's theme: shown, never saved. A frame shares the saved settings of the app's
   * site (same site, or Storage Access), and a host's choice must not replace the visitor's own.
   */
  showHostTheme(theme: Theme): void;
  resetSettings(): void;
  enterEvidenceOnly(reason: string): void;
  leaveEvidenceOnly(): void;
  /** Decode settings that differ from the ones the shown answer was built with. */
  pendingDecodeChanges(): DecodeKey[];
}

function message(e: unknown): string {
  if (e instanceof Error) {
    const s = (e as Error & { suggestion?: string }).suggestion;
    return s ? `${e.message} ${s}` : e.message;
  }
  return String(e);
}

function isAbort(e: unknown): boolean {
  return e instanceof DOMException ? e.name === 'AbortError' : e instanceof Error && e.name === 'AbortError';
}

/** Counts every generator call so the page (and tests) can show that re-ranking made none. */
function counting(gen: Generator, onCall: () => void): Generator {
  return {
    decideRetrieval: (req) => {
      onCall();
      return gen.decideRetrieval(req);
    },
    generateSegments: (reqs) => {
      onCall();
      return gen.generateSegments(reqs);
    },
    cost: gen.cost ? () => gen.cost!() : undefined,
    // The default critique source asks whether the model grades itself natively (core/critique-source.ts).
    native: gen.native === true,
  };
}

/** The generator seeing the conversation: each request's question carries the earlier turns. */
function withContext(gen: Generator, context: string | undefined): Generator {
  if (!context) return gen;
  const q = (question: string) => questionWithHistory(question, context);
  return {
    decideRetrieval: (req) => gen.decideRetrieval({ ...req, question: q(req.question) }),
    generateSegments: (reqs) => gen.generateSegments(reqs.map((r) => ({ ...r, question: q(r.question) }))),
    cost: gen.cost ? () => gen.cost!() : undefined,
    // The default critique source asks whether the model grades itself natively (core/critique-source.ts).
    native: gen.native === true,
  };
}

export function createController(opts: {
  ports: AnswerPorts;
  decode: DecodeFn;
  rerank: RerankFn;
  settings?: AppSettings;
  storage?: Pick<Storage, 'setItem'>;
  evidenceOnly?: { reason: string } | null;
  now?: () => number;
}): Controller {
  const now = opts.now ?? (() => performance.now());
  const store = createStore<AppState>({
    settings: opts.settings ?? defaultSettings(),
    answer: initialAnswerState,
    evidenceOnly: opts.evidenceOnly ?? null,
    generatorCalls: 0,
    lastRerankMs: null,
  });
  let abort: AbortController | null = null;
  let counted: { raw: Generator; wrapped: Generator } | null = null;

  const set = (next: Partial<AppState>) => store.set((s) => ({ ...s, ...next }));
  const setAnswer = (f: (a: AnswerState) => AnswerState) => store.set((s) => ({ ...s, answer: f(s.answer) }));
  /** Saves the settings and shows them, with any other change made in the same repaint. */
  // The visitor's own theme while a host's is shown (null when none is).
  let ownTheme: Theme | null = null;
  const persist = (settings: AppSettings, with_: Partial<AppState> = {}) => {
    saveSettings(opts.storage, ownTheme === null ? settings : { ...settings, theme: ownTheme });
    set({ ...with_, settings });
  };

  async function askEvidence(question: string, runId: number, signal: AbortSignal) {
    const retriever = await opts.ports.retriever(store.get().settings.retrieval);
    const passages = await retriever.retrieve(
      question,
      Math.max(5, store.get().settings.decode.passagesPerStep),
      signal,
    );
    let rels: (RelProbs | null)[] = passages.map(() => null);
    try {
      const critic = await opts.ports.critic();
      if (critic && passages.length > 0) rels = await critic.relevance(question, passages, signal);
    } catch (e) {
      if (isAbort(e)) throw e;
      // Relevance badges are a bonus here; the passages are still worth showing.
    }
    const pairs = passages.map((passage, i) => ({ passage, rel: rels[i] ?? null }));
    // A re-ranked retrieval already ordered them (cross-encoder mixed with the first stage); otherwise relevance orders them.
    const ranked = passages.some((p) => p.ranks?.rerank !== undefined)
      ? pairs
      : pairs.sort((a, b) => (b.rel ? b.rel.relevant : b.passage.score) - (a.rel ? a.rel.relevant : a.passage.score));
    if (store.get().answer.runId !== runId) return;
    setAnswer((a) => ({ ...a, status: 'done', evidence: { passages: ranked } }));
  }

  async function ask(shown: string, askOpts: AskOptions = {}) {
    // Retrieval, the retrieve decision, CRAG and the critic work on the standalone query; the page shows the question asked.
    const question = askOpts.query?.trim() || shown;
    abort?.abort();
    const ctrl = new AbortController();
    abort = ctrl;
    const { decode: decodeSettings, rank, corrective, crag } = store.get().settings;
    const { temperature } = store.get().settings;
    setAnswer((a) => {
      const started = { ...startRun(a, shown, decodeSettings, corrective, crag), query: question };
      const { search, rerank: rerankOn } = store.get().settings.retrieval;
      return {
        ...started,
        usedSettings: started.usedSettings && { ...started.usedSettings, temperature, search, rerank: rerankOn },
      };
    });
    const runId = store.get().answer.runId;
    const current = () => store.get().answer.runId === runId;

    if (store.get().evidenceOnly) {
      setAnswer((a) => ({ ...a, evidenceReason: store.get().evidenceOnly?.reason ?? null }));
      try {
        await askEvidence(question, runId, ctrl.signal);
      } catch (e) {
        if (current()) setAnswer((a) => (isAbort(e) ? { ...a, status: 'stopped' } : failRun(a, message(e))));
      }
      return;
    }

    let generator: Generator;
    try {
      const raw = await opts.ports.generator();
      if (counted?.raw !== raw)
        counted = { raw, wrapped: counting(raw, () => set({ generatorCalls: store.get().generatorCalls + 1 })) };
      generator = withContext(counted.wrapped, askOpts.context);
    } catch (e) {
      if (!current()) return;
      // No generator: fall back to evidence-only for this question and say why.
      const reason = `No answer can be written: ${message(e)} Showing the best passages instead.`;
      set({ evidenceOnly: { reason } });
      setAnswer((a) => ({ ...a, evidenceReason: reason }));
      try {
        await askEvidence(question, runId, ctrl.signal);
      } catch (e2) {
        if (current()) setAnswer((a) => (isAbort(e2) ? { ...a, status: 'stopped' } : failRun(a, message(e2))));
      }
      return;
    }
    try {
      const [retriever, critic, corrector] = await Promise.all([
        opts.ports.retriever(store.get().settings.retrieval),
        opts.ports.critic().catch(() => undefined),
        corrective && opts.ports.corrector ? opts.ports.corrector(crag) : undefined,
      ]);
      const result = await opts.decode(question, { generator, retriever, critic, corrector }, decodeSettings, rank, {
        signal: ctrl.signal,
        onEvent: (ev) => {
          if (current()) setAnswer((a) => applyEvent(a, ev, store.get().settings.rank, opts.rerank));
        },
      });
      if (!current()) return;
      setAnswer((a) => finishRun(a, result));
      // The user may have moved a weight while it ran: show the ranking for today's weights.
      if (store.get().settings.rank !== rank)
        setAnswer((a) => ({ ...applyRank(a, store.get().settings.rank, opts.rerank), changed: [] }));
    } catch (e) {
      if (!current()) return;
      if (isAbort(e)) return setAnswer((a) => ({ ...a, status: 'stopped', streaming: [] }));
      // The core hands back what it finished before the bad input: keep showing it.
      const partial = (e as { partial?: AnswerTree }).partial;
      setAnswer((a) => {
        let kept = a;
        if (partial && partial.candidates.length > 0) {
          try {
            kept = { ...a, tree: partial, ranking: opts.rerank(partial, store.get().settings.rank) };
          } catch {
            // keep the streamed state
          }
        }
        return failRun(kept, message(e));
      });
    } finally {
      if (abort === ctrl) abort = null;
    }
  }

  return {
    getState: store.get,
    subscribe: store.subscribe,
    ask,
    view(answer) {
      const state = store.get();
      if (state.answer.status === 'running') return;
      let shown: AnswerState = { ...answer, runId: state.answer.runId + 1, streaming: [], changed: [] };
      try {
        if (shown.tree && shown.tree.candidates.length > 0)
          shown = { ...shown, ranking: opts.rerank(shown.tree, state.settings.rank) };
      } catch (e) {
        shown = { ...shown, error: message(e) };
      }
      set({ answer: shown });
    },
    stop() {
      if (!abort) return;
      abort.abort();
      opts.ports.interrupt?.();
    },
    setRank(rank) {
      const t0 = now();
      let answer = store.get().answer;
      try {
        if (answer.status !== 'running') answer = applyRank(answer, rank, opts.rerank);
      } catch (e) {
        answer = { ...answer, error: message(e) };
      }
      persist({ ...store.get().settings, rank }, { answer, lastRerankMs: now() - t0 });
    },
    setDecode(decode) {
      persist({ ...store.get().settings, decode });
    },
    setCorrective(on) {
      persist({ ...store.get().settings, corrective: on });
    },
    setCrag(crag) {
      const problem = cragProblem(crag);
      if (problem) return problem;
      persist({ ...store.get().settings, crag: { ...crag } });
      return null;
    },
    setRetrieval(retrieval) {
      persist({ ...store.get().settings, retrieval: { ...retrieval } });
    },
    setIndexKind(indexKind) {
      persist({ ...store.get().settings, indexKind });
    },
    setModel(model) {
      persist({ ...store.get().settings, model });
    },
    setCustomModel(customModel) {
      persist({ ...store.get().settings, customModel: { ...customModel }, model: CUSTOM_MODEL_KEY });
    },
    setEngine(engine) {
      persist({
        ...store.get().settings,
        engine: sanitizeEngineChoice(engine, store.get().settings.engine, globalThis.location?.href),
      });
    },
    setTemperature(temperature) {
      persist({ ...store.get().settings, temperature });
    },
    setSetting(key, value) {
      const current = store.get().settings;
      persist(sanitizeSettings({ ...current, [key]: value }, current, globalThis.location?.href));
    },
    setTheme(theme) {
      ownTheme = null;
      persist({ ...store.get().settings, theme });
    },
    setKeepOriginals(keepOriginals) {
      persist({ ...store.get().settings, keepOriginals });
    },
    showHostTheme(theme) {
      ownTheme ??= store.get().settings.theme;
      set({ settings: { ...store.get().settings, theme } });
    },
    resetSettings() {
      const d = defaultSettings();
      const { answer: shown, settings } = store.get();
      const answer = shown.status !== 'running' ? applyRank(shown, d.rank, opts.rerank) : shown;
      // The index in use is the one the library opened with; resetting it would only ask for a reload.
      const { theme, model, customModel, temperature, indexKind } = settings;
      persist({ ...d, theme, model, customModel, temperature, indexKind }, { answer });
    },
    enterEvidenceOnly(reason) {
      set({ evidenceOnly: { reason } });
    },
    leaveEvidenceOnly() {
      set({ evidenceOnly: null });
    },
    pendingDecodeChanges() {
      const used = store.get().answer.usedSettings;
      return used && store.get().answer.status !== 'running' && !store.get().evidenceOnly
        ? decodeChanges(used, {
            ...store.get().settings.decode,
            corrective: store.get().settings.corrective,
            crag: store.get().settings.crag,
            temperature: store.get().settings.temperature,
            search: store.get().settings.retrieval.search,
            rerank: store.get().settings.retrieval.rerank,
          })
        : [];
    },
  };
}
