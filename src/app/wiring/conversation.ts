// The conversation around the answer controller: the thread being shown, its turns kept in
// IndexedDB as they stream, follow-ups rewritten into standalone search queries, the recent
// turns given to the decode within the model's window, versions (edit, regenerate) kept as
// siblings, and the list of threads shared with other tabs.
// The thread and history modules themselves, not the folder's index: the index also carries the
// exports and the rewrite, which load on first use (the first screen's download has a budget).
import { fitHistory, historyBudget, historyText, historyTurns } from '../../core/conversation/history';
import {
  activePath,
  addTurn,
  ancestors,
  emptyThread,
  selectTurn,
  stepSibling,
  updateTurn,
  type Thread,
  type Turn,
  type TurnFigures,
} from '../../core/conversation/thread';
import { initialAnswerState, type AnswerState } from '../state/answer';
import type { Controller } from './controller';
import type { ThreadStore, ThreadSummary } from '../persist/thread-store';
import { createStore } from '../state/store';
import type { CompleteRequest, CompleteResult } from '../../generator/handle';
import { answerOfTurn, turnPatch } from './turn-answer';

/** One short constrained completion on whichever engine is loaded. */
export type CompleteFn = (req: CompleteRequest) => Promise<Pick<CompleteResult, 'text'>>;

export interface ConversationState {
  threads: ThreadSummary[];
  thread: Thread | null;
  /** The turn whose answer the page shows in full (the newest on the path unless the user opened another). */
  viewed: string | null;
  /** The turn being written now. */
  running: string | null;
  /** Set while a follow-up is being rewritten (before retrieval starts). */
  rewriting: boolean;
  /** What the page must say: a refused question, a turn that could not be kept, a thread deleted elsewhere. */
  notice: { kind: 'info' | 'warn'; text: string } | null;
}

export interface Conversation {
  get(): ConversationState;
  subscribe(fn: () => void): () => void;
  /**
   * Opens the newest thread, if any (the page after a reload shows where the user was). With a
   * linked question it opens the newest thread only when that thread ends with the question
   * (a reload of the page's own address); returns whether it did.
   */
  start(opts?: { linkedQuestion?: string | null }): Promise<boolean>;
  ask(question: string): Promise<void>;
  /** A new version of a turn's question (a sibling). */
  edit(turnId: string, question: string): Promise<void>;
  /** A new version of a turn's answer (a sibling with the same question). */
  regenerate(turnId: string): Promise<void>;
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

/** About four characters a token for English with a BPE vocabulary (measured in bench/conversation.bench.ts). */
export const estimateTokens = (text: string) => Math.ceil(text.length / 3.5);

export function createConversation(deps: ConversationDeps): Conversation {
  const { controller } = deps;
  const now = deps.now ?? (() => Date.now());
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const count = deps.countTokens ?? estimateTokens;
  const saveEvery = deps.saveEveryMs ?? 400;
  const page = createStore<ConversationState>({
    threads: [],
    thread: null,
    viewed: null,
    running: null,
    rewriting: false,
    notice: null,
  });
  // Read through a getter so every use sees the newest value.
  const cur = {
    get state() {
      return page.get();
    },
  };
  let store: ThreadStore | null = null;
  let saveTimer: ReturnType<typeof setTimeout> | null = null;
  let saving: Promise<void> = Promise.resolve();
  let deletedElsewhere = false;

  const set = (next: Partial<ConversationState>) => page.set((s) => ({ ...s, ...next }));

  async function refreshList() {
    if (!store) return;
    try {
      set({ threads: await store.list() });
    } catch {
      // The list is a convenience; the thread on screen is unaffected.
    }
  }

  function save(thread: Thread) {
    if (!store) return;
    const s = store;
    saving = saving.then(async () => {
      try {
        await s.put(thread);
        deletedElsewhere = false;
        if (cur.state.notice?.kind === 'warn' && /could not be kept/.test(cur.state.notice.text)) set({ notice: null });
      } catch (e) {
        set({ notice: { kind: 'warn', text: e instanceof Error ? e.message : String(e) } });
      }
    });
  }

  function setThread(thread: Thread, persist = true) {
    set({ thread });
    if (persist) save(thread);
  }

  // The running turn follows the controller's answer; saved at most every `saveEvery` ms while it streams.
  let lastAnswer: AnswerState | null = null;
  controller.subscribe(() => {
    const a = controller.getState().answer;
    if (a === lastAnswer) return;
    lastAnswer = a;
    const id = cur.state.running;
    if (!id || !cur.state.thread?.turns[id]) return;
    const thread = updateTurn(cur.state.thread, id, turnPatch(a), now());
    if (a.status === 'running') {
      set({ thread });
      if (!saveTimer) {
        saveTimer = setTimeout(() => {
          saveTimer = null;
          if (cur.state.thread) save(cur.state.thread);
        }, saveEvery);
      }
      return;
    }
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = null;
    set({ running: null });
    setThread(thread);
  });

  async function rewriteQuery(
    path: Turn[],
    question: string,
  ): Promise<{ query: string; rewrite: string | null; note?: string }> {
    // The follow-up rewrite loads with the first question, not with the page.
    const { joinedQuery, rewritePrompt, cleanRewrite } = await import('../../core/conversation/rewrite');
    const earlier = path.map((t) => t.question);
    const joined = joinedQuery(earlier, question);
    if (controller.getState().evidenceOnly) return { query: joined, rewrite: null };
    const req = rewritePrompt(historyTurns(path).slice(-3), question);
    if (!req) return { query: question, rewrite: null };
    let complete: CompleteFn | null = null;
    try {
      complete = (await deps.complete?.()) ?? null;
    } catch {
      complete = null;
    }
    if (!complete)
      return {
        query: joined,
        rewrite: null,
        note: 'No generator to rewrite the follow-up with: searched with the earlier questions added.',
      };
    try {
      const out = await complete(req);
      const cleaned = cleanRewrite(out.text, question);
      // An unusable rewrite falls back to the joined questions, which keep the earlier subject.
      return cleaned.usedRewrite
        ? { query: cleaned.query, rewrite: cleaned.query }
        : {
            query: joined,
            rewrite: null,
            note: `The rewrite was not used (${cleaned.reason}): searched with the earlier questions added.`,
          };
    } catch (e) {
      return {
        query: joined,
        rewrite: null,
        note: `The follow-up could not be rewritten (${e instanceof Error ? e.message : String(e)}): searched with the earlier questions added.`,
      };
    }
  }

  /**
   * Whether an answer is being written: a turn of this conversation (from before its rewrite until
   * the controller finishes it), or an answer the controller was asked for directly (Rerun, an
   * embedding page). The one test every "wait for it" below uses.
   */
  function answering(): boolean {
    return cur.state.running !== null || controller.getState().answer.status === 'running';
  }

  async function askUnder(parentId: string | null, question: string, userQuery?: string): Promise<void> {
    const q = question.trim();
    if (!q) return set({ notice: { kind: 'info', text: 'Type a question first.' } });
    if (answering()) {
      return set({
        notice: {
          kind: 'info',
          text: 'An answer is still being written. Wait for it to finish or press Stop, then ask again.',
        },
      });
    }
    let thread = cur.state.thread ?? emptyThread(newId(), now());
    if (deletedElsewhere) thread = { ...thread, id: newId() };
    deletedElsewhere = false;
    const path =
      parentId === null
        ? []
        : [...ancestors(thread, parentId), thread.turns[parentId]].filter((t): t is Turn => t !== undefined);
    const model = deps.model();
    const settings = controller.getState().settings;
    const id = newId();
    // The turn is on screen (and kept) at once, before the rewrite: nothing the user asked is ever lost.
    thread = addTurn(
      thread,
      {
        id,
        parentId,
        question: q,
        rewrite: null,
        searchQuery: q,
        answer: null,
        answerText: '',
        settings: {
          rank: settings.rank,
          decode: settings.decode,
          corrective: settings.corrective,
          retrieval: settings.retrieval,
          temperature: settings.temperature,
        },
        model: controller.getState().evidenceOnly ? null : model.id,
        status: 'stopped',
        createdAt: now(),
      },
      now(),
    );
    set({ running: id, viewed: id, notice: null, rewriting: path.length > 0 && !userQuery });
    setThread(thread);
    const { query, rewrite, note } = userQuery
      ? { query: userQuery.trim(), rewrite: userQuery.trim(), note: undefined }
      : await rewriteQuery(path, q);
    const history = fitHistory(historyTurns(path), historyBudget(model.contextWindow), count);
    if (cur.state.thread?.turns[id])
      setThread(
        updateTurn(cur.state.thread, id, { rewrite, searchQuery: query, droppedTurns: history.dropped }, now()),
        false,
      );
    if (note) set({ notice: { kind: 'info', text: note } });
    const context = historyText(history);
    // The controller marks its answer running before its first await: the page never shows the previous answer as this turn's.
    const asked = controller.ask(q, { ...(query !== q ? { query } : {}), ...(context ? { context } : {}) });
    set({ rewriting: false });
    await asked;
    // Settings the turn was written with, as the controller recorded them.
    const used = controller.getState().answer.usedSettings;
    if (used && cur.state.thread?.turns[id])
      setThread(
        updateTurn(cur.state.thread, id, { settings: { ...cur.state.thread.turns[id]!.settings, used } }, now()),
      );
    await saving;
  }

  function showTurn(thread: Thread, id: string | null) {
    set({ viewed: id });
    const turn = id ? thread.turns[id] : undefined;
    controller.view(turn ? answerOfTurn(turn) : initialAnswerState);
  }

  const last = (t: Thread) => activePath(t).at(-1)?.id ?? null;

  return {
    get: page.get,
    subscribe: page.subscribe,
    async start(opts = {}) {
      store = await deps.store.catch(() => null);
      if (!store) {
        const said = await deps.notKeptSaid?.().catch(() => false);
        if (!said)
          set({
            notice: {
              kind: 'warn',
              text: 'Threads cannot be kept in this browser (storage is unavailable): this conversation lasts until the page closes.',
            },
          });
        return false;
      }
      store.subscribe((c) => {
        void refreshList();
        if (c.type === 'delete' && cur.state.thread?.id === c.id) {
          deletedElsewhere = true;
          set({
            notice: {
              kind: 'warn',
              text: 'This thread was deleted (perhaps in another tab). It stays on screen; asking again keeps it as a new thread.',
            },
          });
        }
      });
      await refreshList();
      const latest = cur.state.threads[0];
      if (!latest || cur.state.thread) return false;
      const thread = await store.get(latest.id);
      if (!thread) return false;
      const linked = opts.linkedQuestion?.trim();
      const end = activePath(thread).at(-1);
      // The page's address carries a follow-up's standalone query (its share link), not its words.
      if (linked && end?.question !== linked && (end?.rewrite ?? end?.searchQuery) !== linked) return false;
      set({ thread });
      showTurn(thread, last(thread));
      return true;
    },
    ask(question) {
      return askUnder(cur.state.thread ? last(cur.state.thread) : null, question);
    },
    edit(turnId, question) {
      const t = cur.state.thread?.turns[turnId];
      return t ? askUnder(t.parentId, question) : Promise.resolve();
    },
    regenerate(turnId) {
      const t = cur.state.thread?.turns[turnId];
      return t ? askUnder(t.parentId, t.question) : Promise.resolve();
    },
    editQuery(turnId, query) {
      const t = cur.state.thread?.turns[turnId];
      if (!t || !query.trim()) return Promise.resolve();
      return askUnder(t.parentId, t.question, query);
    },
    step(turnId, delta) {
      if (!cur.state.thread || answering()) return;
      const thread = stepSibling(cur.state.thread, turnId, delta);
      setThread(thread);
      showTurn(thread, last(thread));
    },
    view(turnId) {
      if (!cur.state.thread?.turns[turnId] || answering()) return;
      const thread = selectTurn(cur.state.thread, turnId);
      set({ thread });
      showTurn(thread, turnId);
    },
    newThread() {
      if (answering())
        return set({
          notice: { kind: 'info', text: 'An answer is still being written. Stop it before starting a new thread.' },
        });
      set({ thread: null, notice: null });
      deletedElsewhere = false;
      showTurn(emptyThread('', 0), null);
    },
    async open(id) {
      if (answering())
        return set({
          notice: { kind: 'info', text: 'An answer is still being written. Stop it before opening another thread.' },
        });
      const thread = await store?.get(id);
      if (!thread) {
        await refreshList();
        return set({ notice: { kind: 'warn', text: 'That thread is no longer kept (deleted in another tab?).' } });
      }
      deletedElsewhere = false;
      set({ thread, notice: null });
      showTurn(thread, last(thread));
    },
    async rename(id, title) {
      if (!title.trim()) return set({ notice: { kind: 'info', text: 'A thread needs a name: type one.' } });
      if (cur.state.thread?.id === id)
        setThread({ ...cur.state.thread, title: title.trim().replace(/\s+/g, ' ').slice(0, 200) });
      else await store?.rename(id, title);
      await saving;
      await refreshList();
    },
    async remove(id) {
      if (cur.state.running && cur.state.thread?.id === id)
        return set({ notice: { kind: 'info', text: 'Stop the answer being written before deleting its thread.' } });
      await saving;
      await store?.delete(id);
      if (cur.state.thread?.id === id) {
        set({ thread: null });
        showTurn(emptyThread('', 0), null);
      }
      await refreshList();
    },
    // Export and import load their code on first use: the first screen does not need it.
    async exportMarkdown() {
      const thread = cur.state.thread;
      if (!thread) return null;
      const [{ threadToMarkdown }, { supportingSentence }] = await Promise.all([
        import('../../core/conversation/export-markdown'),
        import('../view/highlight'),
      ]);
      return threadToMarkdown(thread, { rank: controller.getState().settings.rank, supporting: supportingSentence });
    },
    async exportJson() {
      const thread = cur.state.thread;
      if (!thread) return null;
      const { threadToJson } = await import('../../core/conversation/export-json');
      return threadToJson(thread);
    },
    async importJson(text) {
      const { threadFromJson } = await import('../../core/conversation/export-json');
      const imported = threadFromJson(text);
      // Always a new thread: an import never overwrites one already kept.
      const thread = { ...imported, id: newId(), updatedAt: now() };
      if (answering()) throw new Error('An answer is still being written. Stop it before importing.');
      set({ thread, notice: null });
      save(thread);
      await saving;
      await refreshList();
      showTurn(thread, last(thread));
    },
    setFigures(turnId, figures) {
      if (!cur.state.thread?.turns[turnId]) return;
      setThread(updateTurn(cur.state.thread, turnId, { figures }, now()));
    },
    dismissNotice() {
      set({ notice: null });
    },
  };
}
