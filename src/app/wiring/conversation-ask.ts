// A question, from the ask box to the answer: it becomes a turn (kept at once), what it is searched
// by is decided (a standalone question as typed, a follow-up rewritten or joined with its topic),
// the earlier turns that fit go to the decode, and the controller writes the answer. Loaded with the first question, as the rewrite is.
import {
  earlierAnswers,
  fitHistory,
  formatQuestionTurn,
  historyBudget,
  historyText,
  historyTurns,
} from '../../core/conversation/history';
import { ancestors, emptyThread, type Turn } from '../../core/conversation/thread';
import type { CompleteFn } from './conversation';
import {
  answering,
  claimRun,
  estimateTokens,
  info,
  save,
  STILL_WRITING,
  type ConversationRunner as Runner,
} from './conversation-keep';
import { errorMessage } from '../../core/errors';

/** The model's standalone rewrite of a follow-up, or null and why not (the joined questions stand in). */
async function modelRewrite(
  r: Runner,
  path: Turn[],
  question: string,
): Promise<{ rewrite: string | null; note?: string }> {
  // The follow-up rewrite loads with the first question, not with the page.
  const { rewritePrompt, cleanRewrite } = await import('../../core/conversation/rewrite');
  if (r.deps.controller.getState().evidenceOnly) return { rewrite: null };
  const req = rewritePrompt(historyTurns(path).slice(-3), question);
  if (!req) return { rewrite: null };
  let complete: CompleteFn | null = null;
  try {
    complete = (await r.deps.complete?.()) ?? null;
  } catch {
    complete = null;
  }
  const fallback = (why: string) => ({ rewrite: null, note: `${why}: searched with the earlier questions added.` });
  if (!complete) return fallback('No generator to rewrite the follow-up with');
  try {
    const cleaned = cleanRewrite(
      (await complete(req)).text,
      question,
      path.map((t) => t.question),
    );
    // An unusable rewrite falls back to the joined questions, which keep the earlier subject.
    return cleaned.usedRewrite ? { rewrite: cleaned.query } : fallback(`The rewrite was not used (${cleaned.reason})`);
  } catch (e) {
    return fallback(`The follow-up could not be rewritten (${errorMessage(e)})`);
  }
}

/** What a question in a thread is searched by: the query, and every reading where the call is unsure. */
interface SearchForm {
  query: string;
  rewrite: string | null;
  /** The question as typed and `query`, both searched and fused (an unsure question). */
  readings?: string[];
  note?: string;
}

/**
 * A question that stands alone is searched as typed, whatever came before (an unrelated question
 * must not find the old subject's passages); a follow-up with its subject (the model's rewrite,
 * else its topic's questions joined); an unsure one both ways, fused (core/conversation/search-plan.ts).
 */
async function searchForm(r: Runner, path: Turn[], question: string): Promise<SearchForm> {
  const { searchPlan } = await import('../../core/conversation/search-plan');
  const earlier = path.map((t) => t.question);
  const plan = searchPlan(question, earlier);
  if (plan.searched === null) return { query: question, rewrite: null };
  const { rewrite, note } = await modelRewrite(r, path, question);
  const final = rewrite ? searchPlan(question, earlier, { rewrite }) : plan;
  return {
    query: final.searched ?? question,
    rewrite,
    ...(final.queries.length > 1 ? { readings: final.queries } : {}),
    ...(note ? { note } : {}),
  };
}

/** The new turn, with the settings it is asked with; on screen (and kept) before anything else happens. */
function askedTurn(
  r: Runner,
  id: string,
  parentId: string | null,
  question: string,
  modelId: string | null,
): Omit<Turn, 'children'> {
  const { settings, evidenceOnly } = r.deps.controller.getState();
  return {
    id,
    parentId,
    question,
    rewrite: null,
    searchQuery: question,
    answer: null,
    answerText: '',
    settings: {
      rank: settings.rank,
      decode: settings.decode,
      corrective: settings.corrective,
      retrieval: settings.retrieval,
      temperature: settings.temperature,
    },
    model: evidenceOnly ? null : modelId,
    status: 'stopped',
    createdAt: r.now(),
  };
}

/**
 * A question, from the ask box to the answer: refused if empty or while another is written; else
 * a turn under `parentId` (kept at once: nothing the user asked is ever lost), the follow-up's
 * search query, the earlier turns that fit the model's window, then the controller's answer.
 */
export async function askUnder(
  r: Runner,
  parentId: string | null,
  question: string,
  userQuery?: string,
): Promise<void> {
  const q = question.trim();
  if (!q) return r.state.dispatch(info('Type a question first.'));
  if (answering(r))
    return r.state.dispatch(info(`${STILL_WRITING} Wait for it to finish or press Stop, then ask again.`));
  const { thread: shown, deletedElsewhere } = r.state.get();
  let into = shown ?? emptyThread(r.newId(), r.now());
  if (deletedElsewhere) into = { ...into, id: r.newId() };
  const path =
    parentId === null
      ? []
      : [...ancestors(into, parentId), into.turns[parentId]].filter((t): t is Turn => t !== undefined);
  const model = r.deps.model();
  const turn = askedTurn(r, r.newId(), parentId, q, model.id);
  const rewriting = path.length > 0 && !userQuery;
  r.state.dispatch({ type: 'turnAsked', into, turn, at: r.now(), rewriting });
  save(r);
  const { query, rewrite, note, readings } = userQuery
    ? { query: userQuery.trim(), rewrite: userQuery.trim(), note: undefined, readings: undefined }
    : await searchForm(r, path, q);
  // The generator is shown the earlier questions, never the earlier answers: a small model pastes
  // what it is shown (issue 46). The answers go to the non-answer guard instead, which withholds
  // a candidate that repeats one.
  const history = fitHistory(
    historyTurns(path),
    historyBudget(model.contextWindow),
    r.deps.countTokens ?? estimateTokens,
    undefined,
    formatQuestionTurn,
  );
  const patch = { rewrite, searchQuery: query, droppedTurns: history.dropped };
  r.state.dispatch({ type: 'turnUpdated', id: turn.id, patch, at: r.now() });
  if (note) r.state.dispatch(info(note));
  // A standalone rewrite (the model's or the user's own) is asked alone (core/conversation/in-thread.ts).
  const context = rewrite ? '' : historyText(history, formatQuestionTurn);
  const earlier = earlierAnswers(path);
  // The controller marks its answer running before its first await: the page never shows the
  // previous answer as this turn's, and that run is claimed for the turn at once (only it writes into it).
  const asked = r.deps.controller.ask(q, {
    ...(query !== q ? { query } : {}),
    ...(context ? { context } : {}),
    ...(earlier.length ? { earlier } : {}),
    ...(readings ? { readings } : {}),
  });
  const run = claimRun(r, turn.id);
  r.state.dispatch({ type: 'rewriteSettled' });
  await asked;
  // A run another run replaced (the controller asked directly) ends unseen: the turn keeps what it
  // got, as stopped, rather than running for ever.
  if (r.state.get().running === turn.id) {
    r.state.dispatch({ type: 'turnFinished', runId: run, patch: { status: 'stopped' }, at: r.now() });
    save(r);
  }
  // Settings the turn was written with, as the controller recorded them (its own run's).
  const { runId, usedSettings: used } = r.deps.controller.getState().answer;
  const kept = r.state.get().thread?.turns[turn.id];
  if (used && kept && runId === run) {
    r.state.dispatch({
      type: 'turnUpdated',
      id: turn.id,
      patch: { settings: { ...kept.settings, used } },
      at: r.now(),
    });
    save(r);
  }
  await r.saving;
}
