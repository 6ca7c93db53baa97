// The conversation's state (wiring/conversation.ts runs the effects: the thread store, the
// follow-up rewrite, the controller): the thread shown, the turn being written, the list of
// threads, and what the page must say, changed only by the actions below. The thread's own
// transitions (add a turn, update it, pick a version) are the core's (core/conversation/thread.ts).
import {
  activePath,
  addTurn,
  selectTurn,
  stepSibling,
  updateTurn,
  type Thread,
  type Turn,
} from '../../core/conversation/thread';
import type { ThreadSummary } from '../persist/thread-store';
import type { AnswerState } from './answer';

export interface ConversationNotice {
  kind: 'info' | 'warn';
  text: string;
}

export interface ConversationState {
  threads: ThreadSummary[];
  thread: Thread | null;
  /** The turn whose answer the page shows in full (the newest on the path unless the user opened another). */
  viewed: string | null;
  /** The turn being written now. */
  running: string | null;
  /**
   * The controller's run that writes the running turn (its `runId`): null until that run starts
   * (while a follow-up is rewritten). Only this run's answer is written into the turn.
   */
  run: number | null;
  /** Set while a follow-up is being rewritten (before retrieval starts). */
  rewriting: boolean;
  /** What the page must say: a refused question, a turn that could not be kept, a thread deleted elsewhere. */
  notice: ConversationNotice | null;
  /** The thread shown was deleted in another tab: it stays on screen, and asking again keeps it as a new thread. */
  deletedElsewhere: boolean;
}

export const initialConversation: ConversationState = {
  threads: [],
  thread: null,
  viewed: null,
  running: null,
  run: null,
  rewriting: false,
  notice: null,
  deletedElsewhere: false,
};

type TurnPatch = Partial<Omit<Turn, 'id' | 'parentId' | 'children'>>;

export type ConversationAction =
  | { type: 'listed'; threads: ThreadSummary[] }
  | { type: 'saved' }
  | { type: 'saveFailed'; message: string }
  | { type: 'noticed'; notice: ConversationNotice | null }
  | { type: 'deletedElsewhere' }
  /** A question becomes a turn of `into` (the thread shown, or a new one), written from now on. */
  | { type: 'turnAsked'; into: Thread; turn: Omit<Turn, 'children'>; at: number; rewriting: boolean }
  /** The controller's run `runId` started for the running turn `id`: from now on it, and only it, writes into the turn. */
  | { type: 'runClaimed'; id: string; runId: number }
  | { type: 'turnUpdated'; id: string; patch: TurnPatch; at: number }
  /** The run writing the running turn ends: the turn keeps what it got (ignored from any other run). */
  | { type: 'turnFinished'; runId: number; patch: TurnPatch; at: number }
  | { type: 'rewriteSettled' }
  /** A thread shown: re-opened at start, or opened by the user (`fresh`: what was said before is over). */
  | { type: 'threadShown'; thread: Thread; viewed: string | null; fresh: boolean }
  | { type: 'threadCleared'; fresh: boolean }
  | { type: 'turnViewed'; id: string }
  | { type: 'versionStepped'; id: string; delta: -1 | 1 }
  | { type: 'threadRenamed'; title: string }
  /** An imported thread, always a new one; its newest turn is shown once it is kept. */
  | { type: 'threadImported'; thread: Thread }
  | { type: 'viewedSet'; id: string | null };

/** The newest turn on the shown path. */
export const lastTurn = (t: Thread): string | null => activePath(t).at(-1)?.id ?? null;

const CANNOT_KEEP = /could not be kept/;

export function conversationReducer(s: ConversationState, a: ConversationAction): ConversationState {
  switch (a.type) {
    case 'listed':
      return { ...s, threads: a.threads };
    case 'saved':
      return {
        ...s,
        deletedElsewhere: false,
        notice: s.notice?.kind === 'warn' && CANNOT_KEEP.test(s.notice.text) ? null : s.notice,
      };
    case 'saveFailed':
      return { ...s, notice: { kind: 'warn', text: a.message } };
    case 'noticed':
      return { ...s, notice: a.notice };
    case 'deletedElsewhere':
      return {
        ...s,
        deletedElsewhere: true,
        notice: {
          kind: 'warn',
          text: 'This thread was deleted (perhaps in another tab). It stays on screen; asking again keeps it as a new thread.',
        },
      };
    case 'turnAsked':
      return {
        ...s,
        thread: addTurn(a.into, a.turn, a.at),
        running: a.turn.id,
        run: null,
        viewed: a.turn.id,
        notice: null,
        rewriting: a.rewriting,
        deletedElsewhere: false,
      };
    case 'turnUpdated':
      return s.thread?.turns[a.id] ? { ...s, thread: updateTurn(s.thread, a.id, a.patch, a.at) } : s;
    case 'runClaimed':
      return s.running === a.id ? { ...s, run: a.runId } : s;
    case 'turnFinished': {
      if (s.running === null || s.run !== a.runId) return s;
      const thread = s.thread ? updateTurn(s.thread, s.running, a.patch, a.at) : s.thread;
      return { ...s, thread, running: null, run: null };
    }
    case 'rewriteSettled':
      return { ...s, rewriting: false };
    case 'threadShown':
      return {
        ...s,
        thread: a.thread,
        viewed: a.viewed,
        ...(a.fresh ? { notice: null, deletedElsewhere: false } : {}),
      };
    case 'threadCleared':
      return { ...s, thread: null, viewed: null, ...(a.fresh ? { notice: null, deletedElsewhere: false } : {}) };
    case 'turnViewed':
      return s.thread ? { ...s, thread: selectTurn(s.thread, a.id), viewed: a.id } : s;
    case 'versionStepped': {
      if (!s.thread) return s;
      const thread = stepSibling(s.thread, a.id, a.delta);
      return { ...s, thread, viewed: lastTurn(thread) };
    }
    case 'threadRenamed':
      return s.thread ? { ...s, thread: { ...s.thread, title: a.title.trim().replace(/\s+/g, ' ').slice(0, 200) } } : s;
    case 'threadImported':
      return { ...s, thread: a.thread, notice: null };
    case 'viewedSet':
      return { ...s, viewed: a.id };
  }
}

/**
 * Whether an answer is being written: the one test of "running" for the page (the ask box's Stop,
 * the re-run offer) and the conversation (refused questions, thread actions that wait). A turn runs
 * from before its follow-up rewrite until the controller's run ends; the controller's own status
 * covers the moment between its run ending and the turn hearing of it.
 */
export function answering(s: ConversationState, answer: Pick<AnswerState, 'status'>): boolean {
  return s.running !== null || answer.status === 'running';
}

/**
 * The running turn that `answer` is written into: the one whose run it is (`run`), else none. A
 * previous answer re-ranked while a follow-up is rewritten, or another run, never writes into it.
 */
export function turnOfRun(s: ConversationState, answer: Pick<AnswerState, 'runId'>): string | null {
  return s.running !== null && s.run !== null && s.run === answer.runId ? s.running : null;
}

/** The turn whose answer the page shows. */
export function viewedTurn(s: ConversationState): Turn | undefined {
  return s.viewed ? s.thread?.turns[s.viewed] : undefined;
}
