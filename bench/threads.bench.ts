// Questions asked one after another in one thread, on the labelled real question set, with the
// real all-MiniLM-L6-v2 (q8, as the app runs it on WASM) and the app's search (words + meaning,
// no re-rank), without a generator (evidence-only mode, or a rewrite refused):
//   today   every question after the first joined with up to three earlier ones (joinedQuery)
//   plan    the core's search plan (src/core/conversation/search-plan.ts): a standalone question
//           as typed, a follow-up with its topic's questions, an unsure one both ways fused
//   fresh   the same question in a fresh thread (a follow-up: its labelled standalone form)
// Sequences: (a) the follow-up pairs of threads.json; (b) every question of the set asked in
// one thread, in the set's order (neighbours often about the same chapter) and shuffled
// (seeded); (c) the mixed threads of threads.json. recall@3: a top-3 passage holds a gold
// answer and the evidence (bench/real-set/library.ts).
//   npm run bench -- threads
import type { QuestionDependence } from '../src/core/conversation/dependence';
import { HOW_TO_FETCH } from '../scripts/real-models/catalogue';
import { mulberry32 } from '../src/core/mulberry32';
import { createRealEmbedder, realEmbedderDir } from './real/real-embedder';
import { realLibrary } from './real-set/library';
import { realSearcher } from './real-set/searcher';
import { asTurn, at3, followTurn, type Strategy, threadRanks, type Turn } from './real-set/thread-runs';
import { questionSet } from '../test/real/question-set';

const f3 = (x: number) => x.toFixed(3);
function counts(calls: QuestionDependence[]): string {
  const n = (d: QuestionDependence) => calls.filter((c) => c === d).length;
  return `${n('standalone')} / ${n('unsure')} / ${n('follow-up')}`;
}

function row(
  label: string,
  r: Record<Strategy, number[]> & { calls: QuestionDependence[] },
  pick?: (i: number) => boolean,
): string {
  const sel = (xs: number[]) => (pick ? xs.filter((_, i) => pick(i)) : xs);
  const calls = pick ? r.calls.filter((_, i) => pick(i)) : r.calls;
  const [today, plan, fresh] = [at3(sel(r.today)), at3(sel(r.plan)), at3(sel(r.fresh))];
  return `| ${label} | ${calls.length} | ${f3(fresh)} | ${f3(today)} | ${f3(plan)} | ${f3(plan - fresh)} | ${counts(calls)} |`;
}

export async function run(): Promise<void> {
  if (!realEmbedderDir()) {
    console.log(`!!! the real all-MiniLM-L6-v2 is not on this machine: nothing measured. ${HOW_TO_FETCH}`);
    return;
  }
  const embedder = createRealEmbedder('q8');
  const { questions, followUps, threads } = questionSet();
  const lib = await realLibrary();
  const s = await realSearcher(lib.passages, embedder, 'all-MiniLM-L6-v2-q8', (m) => console.log(m));
  const byId = new Map<string, Turn>([
    ...questions.map((q) => [q.id, asTurn(q)] as const),
    ...followUps.map((f) => [f.id, followTurn(f)] as const),
  ]);
  console.log(
    `Library: ${lib.passages.length} passages; model: real all-MiniLM-L6-v2 q8; search: words + meaning, no re-rank.`,
  );
  console.log(
    '\n| sequence | turns | recall@3 fresh | today (joined) | plan | plan − fresh | standalone / unsure / follow-up |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---|');

  // (a) Each follow-up right after its first question, in a thread of two.
  const pairs = {
    today: [] as number[],
    plan: [] as number[],
    fresh: [] as number[],
    calls: [] as QuestionDependence[],
  };
  for (const f of followUps) {
    const first = byId.get(f.firstId)!;
    const r = await threadRanks(s, [first, byId.get(f.id)!]);
    for (const k of ['today', 'plan', 'fresh'] as const) pairs[k].push(r[k][1]!);
    pairs.calls.push(r.calls[1]!);
  }
  console.log(row('(a) follow-up after its first question (fresh: its standalone form)', pairs));

  // (b) Every question in one thread.
  const inOrder = questions.map(asTurn);
  const ordered = await threadRanks(s, inOrder);
  console.log(row("(b) all questions in one thread, the set's order", ordered));
  console.log(row('    dev split', ordered, (i) => inOrder[i]!.split === 'dev'));
  console.log(row('    test split', ordered, (i) => inOrder[i]!.split === 'test'));
  const rand = mulberry32(35);
  const shuffledTurns = inOrder
    .map((t) => [rand(), t] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, t]) => t);
  const shuffled = await threadRanks(s, shuffledTurns);
  console.log(row('(b) all questions in one thread, shuffled (seed 35)', shuffled));

  // (c) The mixed threads: questions and their follow-ups, interleaved.
  const mixed = {
    today: [] as number[],
    plan: [] as number[],
    fresh: [] as number[],
    calls: [] as QuestionDependence[],
  };
  const isFollow: boolean[] = [];
  for (const t of threads) {
    const turns = t.turns.map((id) => byId.get(id)!);
    const r = await threadRanks(s, turns);
    for (const k of ['today', 'plan', 'fresh', 'calls'] as const) (mixed[k] as unknown[]).push(...r[k]);
    isFollow.push(...t.turns.map((id) => id.startsWith('fu-')));
  }
  console.log(row('(c) mixed threads, every turn', mixed));
  console.log(row('    their questions', mixed, (i) => !isFollow[i]));
  console.log(row('    their follow-ups', mixed, (i) => !!isFollow[i]));
  await embedder.dispose();
}
