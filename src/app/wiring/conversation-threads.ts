// The thread list's actions on the conversation: open, rename, delete, import, export. Loaded on
// first use: the first screen does not need them.
import type { Thread } from '../../core/conversation/thread';
import { lastTurn } from '../state/conversation';
import {
  info,
  refreshList,
  save,
  showViewed,
  STILL_WRITING,
  answering,
  type ConversationRunner as Runner,
} from './conversation-keep';

export async function open(r: Runner, id: string): Promise<void> {
  const thread = await r.store?.get(id);
  if (!thread) {
    await refreshList(r);
    r.state.dispatch({
      type: 'noticed',
      notice: { kind: 'warn', text: 'That thread is no longer kept (deleted in another tab?).' },
    });
    return;
  }
  r.state.dispatch({ type: 'threadShown', thread, viewed: lastTurn(thread), fresh: true });
  showViewed(r);
}

export async function rename(r: Runner, id: string, title: string): Promise<void> {
  if (!title.trim()) return r.state.dispatch(info('A thread needs a name: type one.'));
  if (r.state.get().thread?.id === id) {
    r.state.dispatch({ type: 'threadRenamed', title });
    save(r);
  } else await r.store?.rename(id, title);
  await r.saving;
  await refreshList(r);
}

export async function remove(r: Runner, id: string): Promise<void> {
  const { running, thread } = r.state.get();
  if (running && thread?.id === id)
    return r.state.dispatch(info('Stop the answer being written before deleting its thread.'));
  await r.saving;
  await r.store?.delete(id);
  if (r.state.get().thread?.id === id) {
    r.state.dispatch({ type: 'threadCleared', fresh: false });
    showViewed(r);
  }
  await refreshList(r);
}

export async function importJson(r: Runner, text: string): Promise<void> {
  const { threadFromJson } = await import('../../core/conversation/export-json');
  const imported = threadFromJson(text);
  // Always a new thread: an import never overwrites one already kept.
  const thread: Thread = { ...imported, id: r.newId(), updatedAt: r.now() };
  if (answering(r)) throw new Error(`${STILL_WRITING} Stop it before importing.`);
  r.state.dispatch({ type: 'threadImported', thread });
  save(r);
  await r.saving;
  await refreshList(r);
  r.state.dispatch({ type: 'viewedSet', id: lastTurn(thread) });
  showViewed(r);
}

export async function exportMarkdown(r: Runner): Promise<string | null> {
  const thread = r.state.get().thread;
  if (!thread) return null;
  const [{ threadToMarkdown }, { supportingSentence }, { threadForExport }] = await Promise.all([
    import('../../core/conversation/export-markdown'),
    import('../view/highlight'),
    import('../view/past-answer'),
  ]);
  const rank = r.deps.controller.getState().settings.rank;
  // Each turn names the model that wrote it, and a turn with no answer says why, never what was withheld.
  return threadToMarkdown(threadForExport(thread, rank), { rank, supporting: supportingSentence });
}

export async function exportJson(r: Runner): Promise<string | null> {
  const thread = r.state.get().thread;
  if (!thread) return null;
  const [{ threadToJson }, { threadForJson }] = await Promise.all([
    import('../../core/conversation/export-json'),
    import('../view/past-answer'),
  ]);
  // Whole, to import again, but never with what the model wrote that was not an answer.
  return threadToJson(threadForJson(thread));
}
