// What every step of the conversation shares (conversation.ts puts them together): its state,
// the thread store once open, the saves queued one after another, and the few effects each step
// uses (keep the thread, list the threads, show the viewed turn's answer, refuse while one is written).
import { initialAnswerState, type AnswerState } from '../state/answer';
import type { ActionStore } from '../state/action-store';
import {
  answering as isAnswering,
  turnOfRun,
  viewedTurn,
  type ConversationAction,
  type ConversationState,
} from '../state/conversation';
import type { ThreadStore } from '../persist/thread-store';
import type { ConversationDeps } from './conversation';
import { answerOfTurn, turnPatch, writerPatch } from './turn-answer';
import { errorMessage } from '../../core/errors';

export const STILL_WRITING = 'An answer is still being written.';

/** About four characters a token for English with a BPE vocabulary (measured in bench/conversation.bench.ts). */
export const estimateTokens = (text: string) => Math.ceil(text.length / 3.5);

/** What the conversation's effects share. */
export interface ConversationRunner {
  deps: ConversationDeps;
  state: ActionStore<ConversationState, ConversationAction>;
  now: () => number;
  newId: () => string;
  /** The thread store, once open (null where the browser keeps nothing). */
  store: ThreadStore | null;
  /** Saves run one after another; this settles when the last one has. */
  saving: Promise<void>;
  saveTimer: ReturnType<typeof setTimeout> | null;
}

export const info = (text: string): ConversationAction => ({ type: 'noticed', notice: { kind: 'info', text } });

/** Keeps the thread shown (queued behind the saves before it). */
export function save(r: ConversationRunner): void {
  const { store } = r;
  const thread = r.state.get().thread;
  if (!store || !thread) return;
  r.saving = r.saving.then(async () => {
    try {
      await store.put(thread);
      r.state.dispatch({ type: 'saved' });
    } catch (e) {
      r.state.dispatch({ type: 'saveFailed', message: errorMessage(e) });
    }
  });
}

export async function refreshList(r: ConversationRunner): Promise<void> {
  if (!r.store) return;
  try {
    r.state.dispatch({ type: 'listed', threads: await r.store.list() });
  } catch {
    // The list is a convenience; the thread on screen is unaffected.
  }
}

/** The controller shows the viewed turn's answer (re-ranked with the weights of now), or none. */
export function showViewed(r: ConversationRunner): void {
  const turn = viewedTurn(r.state.get());
  r.deps.controller.view(turn ? answerOfTurn(turn) : initialAnswerState);
}

/**
 * The controller's answer written into the running turn, if it is that turn's run (`turnOfRun`):
 * streamed into it (saved at most every `saveEveryMs`) until the run ends (`turnFinished`). Any
 * other answer (the previous one re-ranked during a follow-up's rewrite, another run) is not the turn's.
 */
export function followRun(r: ConversationRunner, a: AnswerState): void {
  const state = r.state.get();
  const id = turnOfRun(state, a);
  const turn = id ? state.thread?.turns[id] : undefined;
  if (!id || !turn) return;
  // Who writes it is kept as soon as it is known: a reload mid-answer still names the model.
  const writer = writerPatch(turn, a);
  if (writer) r.state.dispatch({ type: 'turnUpdated', id, patch: writer, at: r.now() });
  if (a.status !== 'running') {
    if (r.saveTimer) clearTimeout(r.saveTimer);
    r.saveTimer = null;
    r.state.dispatch({ type: 'turnFinished', runId: a.runId, patch: turnPatch(a), at: r.now() });
    save(r);
    return;
  }
  r.state.dispatch({ type: 'turnUpdated', id, patch: turnPatch(a), at: r.now() });
  r.saveTimer ??= setTimeout(() => {
    r.saveTimer = null;
    save(r);
  }, r.deps.saveEveryMs ?? 400);
}

/**
 * The run the controller has just started (it marks its answer running before its first await) is
 * the turn's: claimed for it, and its first state written into the turn. Returns the run's id.
 */
export function claimRun(r: ConversationRunner, id: string): number {
  const a = r.deps.controller.getState().answer;
  r.state.dispatch({ type: 'runClaimed', id, runId: a.runId });
  followRun(r, a);
  return a.runId;
}

/** Whether an answer is being written (state/conversation.ts: `answering`): what every "wait for it" below asks. */
export function answering(r: ConversationRunner): boolean {
  return isAnswering(r.state.get(), r.deps.controller.getState().answer);
}

/** Thread actions that wait for the answer being written: said instead while one is. */
export function whenIdle(r: ConversationRunner, what: string, act: () => void | Promise<void>): void | Promise<void> {
  if (answering(r)) return r.state.dispatch(info(`${STILL_WRITING} Stop it before ${what}.`));
  return act();
}
