// What to search for a question asked in a thread, from its dependence on the conversation
// (dependence.ts): a standalone question as typed; a follow-up with its subject (a generator's
// rewrite, or the question joined with the earlier questions of its topic); an unsure one both
// ways, the two ranked lists fused by reciprocal rank so that neither reading loses its passages.
import { type QuestionDependence, questionDependence } from './dependence';
import { joinedQuery } from './rewrite';
import { RRF_K } from '../fusion';
import type { Retriever } from '../ports';

export interface SearchPlan {
  dependence: QuestionDependence;
  reason: string;
  /** The forms to search, each on its own; two are fused with `fuseReadings`. */
  queries: string[];
  /**
   * The form searched besides or instead of the question as typed (a rewrite or the joined
   * questions), for the page ("searched for …") and the share link; null when only the question
   * as typed was searched.
   */
  searched: string | null;
}

/** Earlier questions that one question may lean on, at most this many. */
export const MAX_TOPIC_QUESTIONS = 3;

/**
 * The earlier questions of the current topic, oldest first: back from the newest, up to and
 * including the last one that stood alone (a follow-up of a follow-up still has its subject
 * there), and no further, so an unrelated question asked before never joins the search.
 */
export function topicQuestions(earlier: readonly string[], max = MAX_TOPIC_QUESTIONS): string[] {
  const out: string[] = [];
  for (let i = earlier.length - 1; i >= 0 && out.length < max; i--) {
    const q = earlier[i]!.trim();
    if (!q) continue;
    out.unshift(q);
    if (questionDependence(q, earlier.slice(0, i)).dependence === 'standalone') break;
  }
  return out;
}

/**
 * The plan for `question`, after `earlier` (the thread's questions as typed, oldest first).
 * `rewrite` is a generator's standalone rewrite of the question, when one was made and usable:
 * it replaces the joined questions as the question's subject-bearing form.
 */
export function searchPlan(
  question: string,
  earlier: readonly string[],
  opts: { rewrite?: string | null } = {},
): SearchPlan {
  const typed = question.trim();
  const { dependence, reason } = questionDependence(typed, earlier);
  if (dependence === 'standalone') return { dependence, reason, queries: [typed], searched: null };
  const topic = topicQuestions(earlier);
  const withSubject = opts.rewrite?.trim() || joinedQuery(topic, typed, topic.length);
  if (withSubject === typed) return { dependence, reason, queries: [typed], searched: null };
  return dependence === 'follow-up'
    ? { dependence, reason, queries: [withSubject], searched: withSubject }
    : { dependence, reason, queries: [typed, withSubject], searched: withSubject };
}

/**
 * Ranked lists of the same passages from several readings of one question, fused by reciprocal
 * rank (Cormack et al., k = 60): a passage both readings found comes first; ties go to the
 * better single rank, then to the earlier reading. Returns the best `k`.
 */
export function fuseReadings<T extends { id: string }>(lists: readonly (readonly T[])[], k: number): T[] {
  if (lists.length === 1) return lists[0]!.slice(0, Math.max(0, k));
  const byId = new Map<string, { item: T; score: number; best: number; reading: number }>();
  lists.forEach((list, reading) => {
    const seen = new Set<string>();
    list.forEach((item, i) => {
      // A list that holds a passage twice counts it once, at its better rank.
      if (seen.has(item.id)) return;
      seen.add(item.id);
      const e = byId.get(item.id);
      if (e) {
        e.score += 1 / (RRF_K + i + 1);
        e.best = Math.min(e.best, i + 1);
      } else byId.set(item.id, { item, score: 1 / (RRF_K + i + 1), best: i + 1, reading });
    });
  });
  return [...byId.values()]
    .sort((a, b) => b.score - a.score || a.best - b.best || a.reading - b.reading)
    .slice(0, Math.max(0, k))
    .map((e) => e.item);
}

/**
 * `base`, searching every reading of an unsure question where the decode searches `query` (its
 * first retrieval), the lists fused (`fuseReadings`); any other search (a later step's own query)
 * is `base`'s alone. With one reading it is `base` itself.
 */
export function readingsRetriever(base: Retriever, query: string, readings: readonly string[]): Retriever {
  const forms = [...new Set(readings.map((r) => r.trim()).filter(Boolean))];
  if (forms.length < 2) return base;
  return {
    async retrieve(q, k, signal) {
      if (q.trim() !== query.trim()) return base.retrieve(q, k, signal);
      const lists = await Promise.all(forms.map((f) => base.retrieve(f, k, signal)));
      return fuseReadings(lists, k);
    },
  };
}
