// The conversation around the answer controller: the effects around state/conversation.ts. A
// question from the ask box becomes a turn (`turnAsked`, kept at once), a follow-up gets its search
// query (`searchForm`: as typed, the model's rewrite, or joined with its topic), the recent turns go
// to the decode within the model's window, the controller writes the answer, and the turn follows its
// own run (`claimRun`, `followAnswer`: no other answer writes into it) as it streams, saved at most
// every `saveEveryMs`, until it ends (`turnFinished`). Versions (edit,
// regenerate) are siblings; threads are kept in IndexedDB and shared with other tabs.
// The thread and history modules themselves, not the folder's index: the index also carries the
// exports and the rewrite, which load on first use (the first screen's download has a budget).
import type { TurnFigures } from '../../core/conversation/thread';
import type { AnswerState } from '../state/answer';
import { createActionStore } from '../state/action-store';
import {
  conversationReducer,
  initialConversation,
  lastTurn,
  viewedTurn,
  type ConversationState,
} from '../state/conversation';
import type { Controller } from './controller';
import type { ThreadStore } from '../persist/thread-store';
import type { PageEntry } from '../persist/page-entry';
import { selectTurn } from '../../core/conversation/thread';
import type { CompleteRequest, CompleteResult } from '../../generator/handle';
import {
  answering,
  followRun,
  refreshList,
  save,
  showViewed,
  whenIdle,
  type ConversationRunner as Runner,
} from './conversation-keep';
import { lazy } from './lazy';

export type { ConversationState } from '../state/conversation';

/** One short constrained completion on whichever engine is loaded. */
export type CompleteFn = (req: CompleteRequest) => Promise<Pick<CompleteResult, 'text'>>;

export interface Conversation {
  get(): ConversationState;
  subscribe(fn: () => void): () => void;
  /**
   * Opens the newest thread, if any (the page after a reload shows where the user was). With a
   * linked question it opens the newest thread only when that thread ends with the question
   * (a reload of the page's own address). With the history entry's `entry` (a reload) it opens
   * the thread that was open instead, whichever it was. Returns whether the linked question is
   * answered already (it is not to be asked).
   */
  start(opts?: { linkedQuestion?: string | null; entry?: PageEntry | null }): Promise<boolean>;
  /** Asks in the shown thread; `searchAs` (a shared link's searched form) replaces the search decision. */
  ask(question: string, searchAs?: string): Promise<void>;
  /** A new version of a turn's question (a sibling). */
  edit(turnId: string, question: string): Promise<void>;
  /** A new version of a turn's answer (a sibling with the same question). */
  regenerate(turnId: string): Promise<void>;
  /**
   * The answer shown, written again with today's settings (the page offers it after a decode
   * setting changed): the viewed turn regenerated, so it is searched and written with its thread
   * around it (the follow-up's search query, the earlier turns) and kept as a version of that turn.
   */
  rerun(): Promise<void>;
  /**
   * A question from outside the page (an embedding host's, wiring/embed-wiring.ts): what is being
   * written is stopped, and the question is asked in a new thread of its own, as a question from
   * the address is, so its answer is a turn like any other. Resolves with that turn's id, or null
   * when it was refused (an empty question).
   */
  askApart(question: string): Promise<string | null>;
  /** Re-runs a follow-up with the user's own search words (a sibling). */
  editQuery(turnId: string, query: string): Promise<void>;
  step(turnId: string, delta: -1 | 1): void;
  view(turnId: string): void;
  newThread(): void;
  open(id: string): Promise<void>;
  rename(id: string, title: string): Promise<void>;
  remove(id: string): Promise<void>;
  /** The thread shown, as Markdown (null when none); the exporters load on first use. */
  exportMarkdown(): Promise<string | null>;
  exportJson(): Promise<string | null>;
  /** Reads an exported thread into a new thread; throws with the reason when the file cannot be read. */
  importJson(text: string): Promise<void>;
  setFigures(turnId: string, figures: TurnFigures): void;
  dismissNotice(): void;
}

export interface ConversationDeps {
  controller: Controller;
  store: Promise<ThreadStore | null>;
  /** True when the page already tells the visitor that conversations are not kept (the storage notice): no second notice. */
  notKeptSaid?: () => Promise<boolean>;
  complete?: () => Promise<CompleteFn | null>;
  /** The loaded model's id and context window (tokens). */
  model: () => { id: string | null; contextWindow: number };
  /** Token count for the history budget; a character estimate when the engine's tokenizer is not at hand. */
  countTokens?: (text: string) => number;
  newId?: () => string;
  now?: () => number;
  /** Longest wait between saves of a turn that is streaming. */
  saveEveryMs?: number;
}

export { estimateTokens } from './conversation-keep';

/** The running turn follows the controller's answer, written into it only from the turn's own run (`followRun`). */
function followAnswer(r: Runner): void {
  let last: AnswerState | null = null;
  r.deps.controller.subscribe(() => {
    const a = r.deps.controller.getState().answer;
    if (a === last) return;
    last = a;
    followRun(r, a);
  });
}

/** Opens the thread store and, after a reload, the thread the user was in. */
async function start(r: Runner, linkedQuestion: string | null | undefined, entry?: PageEntry | null): Promise<boolean> {
  r.store = await r.deps.store.catch(() => null);
  // A reload (the history entry kept): the address's question was asked, or its thread opened, when
  // the entry was new; asked again it would make a second thread.
  const asked = entry !== null && entry !== undefined;
  if (!r.store) {
    const said = await r.deps.notKeptSaid?.().catch(() => false);
    if (!said)
      r.state.dispatch({
        type: 'noticed',
        notice: {
          kind: 'warn',
          text: 'Threads cannot be kept in this browser (storage is unavailable): this conversation lasts until the page closes.',
        },
      });
    return asked;
  }
  r.store.subscribe((c) => {
    void refreshList(r);
    if (c.type === 'delete' && r.state.get().thread?.id === c.id) r.state.dispatch({ type: 'deletedElsewhere' });
  });
  await refreshList(r);
  if (asked) return reopen(r, r.store, entry).then(() => true);
  const latest = r.state.get().threads[0];
  if (!latest || r.state.get().thread) return false;
  const thread = await r.store.get(latest.id);
  if (!thread) return false;
  const linked = linkedQuestion?.trim();
  const end = thread.turns[lastTurn(thread) ?? ''];
  // The page's address carries the question as typed (older links: a follow-up's standalone query).
  if (linked && end?.question !== linked && (end?.rewrite ?? end?.searchQuery) !== linked) return false;
  r.state.dispatch({ type: 'threadShown', thread, viewed: lastTurn(thread), fresh: false });
  showViewed(r);
  return true;
}

/** The thread a reload's history entry names, at the turn that was viewed; none when it is no longer kept. */
async function reopen(r: Runner, store: ThreadStore, entry: PageEntry): Promise<void> {
  const kept = entry.thread ? await store.get(entry.thread) : undefined;
  // Something asked meanwhile (before the store opened) stays on screen.
  if (!kept || r.state.get().thread) return;
  const viewed = entry.viewed && kept.turns[entry.viewed] ? entry.viewed : null;
  const thread = viewed ? selectTurn(kept, viewed) : kept;
  r.state.dispatch({ type: 'threadShown', thread, viewed: viewed ?? lastTurn(thread), fresh: false });
  showViewed(r);
}

/**
 * Resolves once no answer is being written, stopping the controller's run each time one runs
 * meanwhile: a follow-up still being rewritten goes on into its run, which is then stopped, and
 * its turn ends as stopped (`followRun`).
 */
function stopWriting(r: Runner): Promise<void> {
  if (!answering(r)) return Promise.resolve();
  const { controller } = r.deps;
  return new Promise((done) => {
    const offs: (() => void)[] = [];
    const check = () => {
      if (!answering(r)) {
        for (const off of offs.splice(0)) off();
        done();
      } else if (controller.getState().answer.status === 'running') controller.stop();
    };
    offs.push(r.state.subscribe(check), controller.subscribe(check));
    check();
  });
}

export function createConversation(deps: ConversationDeps): Conversation {
  const state = createActionStore(conversationReducer, initialConversation);
  const r: Runner = {
    deps,
    state,
    now: deps.now ?? (() => Date.now()),
    newId: deps.newId ?? (() => crypto.randomUUID()),
    store: null,
    saving: Promise.resolve(),
    saveTimer: null,
  };
  followAnswer(r);
  // The ask flow loads with the first question (as the follow-up rewrite does); the thread list's
  // actions on first use.
  const asking = lazy(() => import('./conversation-ask'));
  const threads = lazy(() => import('./conversation-threads'));
  const askUnder = async (parentId: string | null, question: string, userQuery?: string) =>
    (await asking()).askUnder(r, parentId, question, userQuery);
  const turn = (id: string) => state.get().thread?.turns[id];
  const regenerate = async (turnId: string) => {
    const t = turn(turnId);
    if (t) await askUnder(t.parentId, t.question);
  };
  const lastShown = () => {
    const thread = state.get().thread;
    return thread ? lastTurn(thread) : null;
  };

  return {
    get: state.get,
    subscribe: state.subscribe,
    start: (opts = {}) => start(r, opts.linkedQuestion, opts.entry),
    ask: (question, searchAs) => askUnder(lastShown(), question, searchAs),
    edit: async (turnId, question) => {
      const t = turn(turnId);
      if (t) await askUnder(t.parentId, question);
    },
    regenerate: (turnId) => regenerate(turnId),
    rerun: async () => {
      const t = viewedTurn(state.get());
      if (t) await regenerate(t.id);
    },
    askApart: async (question) => {
      await stopWriting(r);
      state.dispatch({ type: 'threadCleared', fresh: true });
      showViewed(r);
      await askUnder(null, question);
      const t = viewedTurn(state.get());
      return t && t.question === question.trim() ? t.id : null;
    },
    editQuery: async (turnId, query) => {
      const t = turn(turnId);
      if (t && query.trim()) await askUnder(t.parentId, t.question, query);
    },
    step(turnId, delta) {
      if (!state.get().thread || answering(r)) return;
      state.dispatch({ type: 'versionStepped', id: turnId, delta });
      save(r);
      showViewed(r);
    },
    view(turnId) {
      if (!turn(turnId) || answering(r)) return;
      state.dispatch({ type: 'turnViewed', id: turnId });
      showViewed(r);
    },
    newThread: () =>
      void whenIdle(r, 'starting a new thread', () => {
        state.dispatch({ type: 'threadCleared', fresh: true });
        showViewed(r);
      }),
    open: async (id) => whenIdle(r, 'opening another thread', async () => (await threads()).open(r, id)),
    rename: async (id, title) => (await threads()).rename(r, id, title),
    remove: async (id) => (await threads()).remove(r, id),
    exportMarkdown: async () => (await threads()).exportMarkdown(r),
    exportJson: async () => (await threads()).exportJson(r),
    importJson: async (text) => (await threads()).importJson(r, text),
    setFigures(turnId, figures) {
      if (!turn(turnId)) return;
      state.dispatch({ type: 'turnUpdated', id: turnId, patch: { figures }, at: r.now() });
      save(r);
    },
    dismissNotice: () => state.dispatch({ type: 'noticed', notice: null }),
  };
}
