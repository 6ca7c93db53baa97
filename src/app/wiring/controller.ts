// The answer controller: the page's state (state/page.ts: settings, the answer, evidence-only mode)
// and the effects that change it. Framework-free so it is tested in Node with fake ports; React
// subscribes with useSyncExternalStore, and the UI only renders this state and calls these methods.
// An answer, step by step: `ask` starts a run (`runStarted`), then controller-run.ts finds a generator
// (or falls back to passages: `generatorMissing`), runs the core's decode with the ports, streaming
// each event into the answer (`decodeEvent`), and ends it (`runFinished`, `runStopped` or `runFailed`).
import type { Corrector, Critic, Generator, Retriever } from '../../core/ports';
import type { DecodeEvent, DecodeResult, DecodeSettings, RankSettings, Ranking, AnswerTree } from '../../core/types';
import type { AnswerState, AnswerWriter, MeaningCoverage } from '../state/answer';
import type { PassageJudge, RetrievalSettings } from '../../core/hybrid';
import { createActionStore, type ActionStore } from '../state/action-store';
import { lazy } from './lazy';
import { initialPage, pageReducer, pendingDecodeChanges, type AppState, type PageAction } from '../state/page';
import {
  cragProblem,
  saveSettings,
  type AppSettings,
  type CragChoice,
  type DecodeKey,
  type Theme,
  type VisitSettings,
} from '../persist/settings';

export type { AppState } from '../state/page';
export type { VisitSettings } from '../persist/settings';

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
  retriever(settings?: RetrievalSettings, judge?: PassageJudge): Promise<Retriever>;
  critic(): Promise<Critic | undefined>;
  /** Self-CRAG's corrector, built on the same generator, retriever and evaluator, with the user's CRAG settings. */
  corrector?(crag: CragChoice): Promise<Corrector>;
  /** Stops a generation in flight at once (the abort signal alone waits for the engine). */
  interrupt?(): void;
  /**
   * The model and engine behind a generator these ports gave (the loaded model, whatever the
   * settings name now), recorded on the answer it writes; null when not known.
   */
  writtenBy?(generator: Generator): AnswerWriter | null;
  /**
   * How much of the library search by meaning reaches now (passages with vectors out of all):
   * read when a question is searched, so its answer can say that the rest was found by words.
   */
  meaningCoverage?(): MeaningCoverage;
}

/** How a turn of a conversation is asked: the query retrieval uses and the earlier turns the generator sees. */
export interface AskOptions {
  /** The standalone search query (a follow-up's rewrite, the user's edit of it, or the joined questions). */
  query?: string;
  /**
   * Earlier turns as text (their questions), put with the question as typed in the generator's
   * prompts; absent where `query` is a standalone rewrite, which the generator is asked alone.
   */
  context?: string;
  /** The earlier turns' answers: never shown to the generator; a candidate that repeats one is withheld. */
  earlier?: readonly string[];
  /**
   * Every form to search where the question may or may not lean on the conversation (the
   * question as typed and `query`): each searched, the lists fused (core/conversation/search-plan.ts).
   */
  readings?: string[];
}

export interface Controller {
  getState(): AppState;
  subscribe(fn: () => void): () => void;
  ask(question: string, opts?: AskOptions): Promise<void>;
  stop(): void;
  /** Shows a stored answer (a past turn) re-ranked with today's weights; ignored while an answer is running. */
  view(answer: AnswerState): void;
  /**
   * Changes settings, the one way they change: through the same sanitiser that reads stored and
   * linked settings (a value it refuses keeps the current one), saved at once; whatever depends on
   * a setting follows the settings (services through `services.follow`). A new weight re-ranks the
   * shown answer. Returns why a change was refused where the page says so (a contradictory CRAG
   * pair, whose old pair stays), else null.
   */
  change(patch: Partial<AppSettings>): string | null;
  /**
   * The embedding page's theme: shown, never saved. A frame shares the saved settings of the app's
   * site (same site, or Storage Access), and a host's choice must not replace the visitor's own.
   */
  showHostTheme(theme: Theme): void;
  resetSettings(): void;
  /** The visitor chose evidence-only mode: saved, so it lasts until they leave it. */
  enterEvidenceOnly(reason: string): void;
  leaveEvidenceOnly(): void;
  /** Decode settings that differ from the ones the shown answer was built with. */
  pendingDecodeChanges(): DecodeKey[];
}

/** What one controller's runs share. */
export interface ControllerRunner {
  page: ActionStore<AppState, PageAction>;
  ports: AnswerPorts;
  decode: DecodeFn;
  /** The generator the ports gave, wrapped once to count its calls. */
  counted: { raw: Generator; wrapped: Generator } | null;
  abort: AbortController | null;
}

/** The steps of an answer after it starts (controller-run.ts): they load with the first question, as the decode does. */
const running = lazy(() => import('./controller-run'));

/**
 * Starts an answer: it is marked running before anything is awaited (the page never shows the
 * previous answer as this one's), then written (controller-run.ts: `answer`).
 */
async function ask(r: ControllerRunner, shown: string, opts: AskOptions): Promise<void> {
  // Retrieval, the retrieve decision, CRAG and the critic work on the standalone query; the page shows the question asked.
  const question = opts.query?.trim() || shown;
  r.abort?.abort();
  const ctrl = new AbortController();
  r.abort = ctrl;
  r.page.dispatch({ type: 'runStarted', shown, query: question });
  const run = { id: r.page.get().answer.runId, signal: ctrl.signal };
  try {
    await (await running()).answer(r, question, run, opts.context ? { ...opts, asked: shown } : opts);
  } finally {
    if (r.abort === ctrl) r.abort = null;
  }
}

export function createController(opts: {
  ports: AnswerPorts;
  decode: DecodeFn;
  rerank: RerankFn;
  /** The saved settings (a shared link's already applied). */
  settings?: AppSettings;
  /** Settings for this visit only, never saved (the engine the page's address names). */
  visit?: VisitSettings;
  storage?: Pick<Storage, 'setItem'>;
  evidenceOnly?: { reason: string } | null;
  now?: () => number;
}): Controller {
  const now = opts.now ?? (() => performance.now());
  const page = createActionStore(
    pageReducer({ rerank: opts.rerank, now }),
    initialPage(opts.settings, opts.visit, opts.evidenceOnly ?? null),
  );
  const r: ControllerRunner = { page, ports: opts.ports, decode: opts.decode, counted: null, abort: null };
  /** Dispatches a settings action and saves what it left saved. */
  const settle = (action: PageAction) => {
    page.dispatch(action);
    saveSettings(opts.storage, page.get().saved);
  };

  return {
    getState: page.get,
    subscribe: page.subscribe,
    ask: (question, askOpts = {}) => ask(r, question, askOpts),
    view: (answer) => page.dispatch({ type: 'answerViewed', answer }),
    stop() {
      if (!r.abort) return;
      r.abort.abort();
      opts.ports.interrupt?.();
    },
    change(patch) {
      const problem = patch.crag ? cragProblem(patch.crag) : null;
      if (problem) return problem;
      settle({ type: 'settingsChanged', patch, pageUrl: globalThis.location?.href });
      return null;
    },
    showHostTheme: (theme) => page.dispatch({ type: 'hostThemeShown', theme }),
    resetSettings: () => settle({ type: 'settingsReset' }),
    enterEvidenceOnly: (reason) => settle({ type: 'evidenceOnlyEntered', reason }),
    leaveEvidenceOnly: () => settle({ type: 'evidenceOnlyLeft' }),
    pendingDecodeChanges: () => pendingDecodeChanges(page.get()),
  };
}
