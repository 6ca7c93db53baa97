// Questions asked one after another in one thread, searched three ways (bench/threads.bench.ts,
// the real tier): as evidence-only mode does today (joined with up to three earlier questions),
// by the core's search plan, and alone in a fresh thread (a follow-up: its labelled standalone form).
import type { QuestionDependence } from '../../src/core/conversation/dependence';
import { joinedQuery } from '../../src/core/conversation/rewrite';
import { fuseReadings, searchPlan } from '../../src/core/conversation/search-plan';
import type { Passage } from '../../src/core/ports';
import type { FollowUp, RealQuestion } from '../../test/real/question-set';
import { type Answerable, firstAnswering } from './library';
import type { Searcher } from './searcher';

export type Strategy = 'today' | 'plan' | 'fresh';

export interface Turn {
  id: string;
  question: string;
  /** The form a fresh thread would search (the question itself, or a follow-up's standalone form). */
  fresh: string;
  record: Answerable;
  split?: string;
}

const K = 10;

/** The ranked passages each strategy gets for each turn of one thread. */
export async function threadRanks(
  s: Searcher,
  turns: Turn[],
): Promise<Record<Strategy, number[]> & { calls: QuestionDependence[] }> {
  const out = { today: [] as number[], plan: [] as number[], fresh: [] as number[], calls: [] as QuestionDependence[] };
  const earlier: string[] = [];
  const todayQueries: string[] = [];
  const planQueries: string[][] = [];
  for (const t of turns) {
    todayQueries.push(earlier.length ? joinedQuery(earlier, t.question) : t.question);
    const plan = searchPlan(t.question, earlier);
    planQueries.push(plan.queries);
    out.calls.push(plan.dependence);
    earlier.push(t.question);
  }
  const flat = [...new Set([...todayQueries, ...planQueries.flat(), ...turns.map((t) => t.fresh)])];
  const lists = new Map<string, Passage[]>();
  const found = await s.search(flat, 2 * K);
  flat.forEach((q, i) => lists.set(q, found[i]!));
  turns.forEach((t, i) => {
    out.today.push(firstAnswering(lists.get(todayQueries[i]!)!.slice(0, K), t.record));
    const fused = fuseReadings(
      planQueries[i]!.map((q) => lists.get(q)!),
      K,
    );
    out.plan.push(firstAnswering(fused, t.record));
    out.fresh.push(firstAnswering(lists.get(t.fresh)!.slice(0, K), t.record));
  });
  return out;
}

export const at3 = (ranks: number[]) => ranks.filter((r) => r > 0 && r <= 3).length / Math.max(1, ranks.length);

export const asTurn = (q: RealQuestion): Turn => ({
  id: q.id,
  question: q.question,
  fresh: q.question,
  record: q,
  split: q.split,
});
export const followTurn = (f: FollowUp): Turn => ({ id: f.id, question: f.followUp, fresh: f.standalone, record: f });
