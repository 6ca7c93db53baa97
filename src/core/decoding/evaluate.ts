// The evaluator's critique of the written candidates (critique source 'evaluator' or 'blend'):
// relevance of each passage to the question, support of each segment by its passage. Relevance
// already judged by the gate is reused: same question, same passages, same judgement.
import type { GeneratedSegment, RelProbs, ScoredPassage, SupProbs } from '../ports';
import { normaliseRel, normaliseSup } from '../scores';
import { checkJudgements, withContext } from './checks';
import type { DecodeContext, Plan } from './context';

/** `sup` is absent for a withheld candidate (not an answer): its support is never asked. */
export type Judgement = { rel: RelProbs; sup?: SupProbs } | undefined;

export async function evaluate(
  ctx: DecodeContext,
  planned: Plan[],
  segments: GeneratedSegment[],
  known?: (RelProbs | undefined)[],
): Promise<Judgement[]> {
  const critic = ctx.ports.critic;
  const idx = planned.flatMap((p, i) => (p.passage ? [i] : []));
  if (ctx.source === 'generator' || !critic || idx.length === 0) return planned.map(() => undefined);
  const passages = idx.map((i) => planned[i]?.passage as ScoredPassage);
  // A withheld candidate (not an answer) is never shown or continued: its support is not asked.
  // Each pair is judged alone, so the kept candidates' support is what it would be with them.
  // Its passage's relevance still is: the page shows it with the evidence when nothing is an answer.
  const judged = idx.filter((i) => !segments[i]?.withheld);
  const pairs = judged.map((i) => ({ passage: planned[i]?.passage as ScoredPassage, text: segments[i]?.text ?? '' }));
  ctx.checkpoint();
  const reuse = known && idx.every((i) => known[i] !== undefined);
  const [rels, sups] = await Promise.all([
    reuse ? idx.map((i) => known[i] as RelProbs) : critic.relevance(ctx.question, passages, ctx.signal),
    pairs.length ? critic.support(pairs, ctx.signal) : Promise.resolve([]),
  ]);
  checkJudgements(idx.length, rels);
  checkJudgements(judged.length, sups);
  const out: Judgement[] = planned.map(() => undefined);
  idx.forEach((i, k) => {
    const rel = rels[k] as RelProbs;
    withContext(`Evaluator relevance of passage ${k + 1}`, () => normaliseRel(rel));
    out[i] = { rel };
  });
  judged.forEach((i, k) => {
    const sup = sups[k] as SupProbs;
    withContext(`Evaluator support of passage ${idx.indexOf(i) + 1}`, () => normaliseSup(sup));
    out[i] = { rel: out[i]!.rel, sup };
  });
  return out;
}
