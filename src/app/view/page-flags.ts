// What the answer page decides from its state before rendering: whether passages are shown instead
// of an answer, whether a thread is shown, and whether anything is loading (the page's clock ticks
// only then). Whether an answer is being written is the conversation's (state/conversation.ts: `answering`).
import type { AppState } from '../state/page';
import type { ConversationState } from '../state/conversation';
import type { StatusMap } from '../state/worker-status';
import type { LibraryViewState } from '../state/library';

/** The page shows passages instead of a written answer. */
export function showsEvidence(page: AppState): boolean {
  return page.evidenceOnly !== null || page.answer.evidence !== null;
}

/** A thread with turns is shown (each turn then heads its own answer). */
export function inThread(convo: ConversationState): boolean {
  return !!convo.thread && convo.thread.roots.length > 0;
}

/** A library job or a model is loading. */
export function loadingSomething(library: LibraryViewState, status: StatusMap): boolean {
  return library.jobs.length > 0 || Object.values(status).some((s) => s.state === 'loading');
}
