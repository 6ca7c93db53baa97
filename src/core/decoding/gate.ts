// The relevance gate: the evaluator judges the step's passages before any candidate is written,
// and a passage below the gate gets no candidate (a candidate costs a whole generation; a
// judgement, one evaluator pass). The step's most relevant passage is always kept, so the gate
// never leaves a step with nothing to write.
import type { RelProbs, ScoredPassage } from '../ports';
import { normaliseRel } from '../scores';
import type { SkippedPassage } from '../types';
import { checkJudgements, withContext } from './checks';
import type { DecodeContext, Plan } from './context';

/** Plans kept, and aligned with them the judgements already made (for the critique to reuse). */
export interface Gated {
  planned: Plan[];
  rels?: (RelProbs | undefined)[];
}

export async function gate(
  ctx: DecodeContext,
  planned: Plan[],
  depth: number,
  parentId: string | null,
): Promise<Gated> {
  const threshold = ctx.settings.relevanceGate ?? 0;
  const critic = ctx.ports.critic;
  const idx = planned.flatMap((p, i) => (p.passage ? [i] : []));
  if (!(threshold > 0) || !critic || idx.length < 2) return { planned };
  ctx.checkpoint();
  const judged = await critic.relevance(
    ctx.question,
    idx.map((i) => planned[i]?.passage as ScoredPassage),
    ctx.signal,
  );
  ctx.checkpoint();
  checkJudgements(idx.length, judged);
  const isrel = judged.map((r, k) =>
    withContext(`Evaluator relevance of passage ${k + 1}`, () => normaliseRel(r).relevant),
  );
  const best = isrel.reduce((b, x, k) => (x > isrel[b]! ? k : b), 0);
  const rels: (RelProbs | undefined)[] = planned.map(() => undefined);
  idx.forEach((i, k) => (rels[i] = judged[k]));
  const skipped: SkippedPassage[] = [];
  const keep = planned.map((p, i) => {
    const k = idx.indexOf(i);
    if (k < 0 || k === best || isrel[k]! >= threshold) return true;
    skipped.push({ depth, parentId, passage: p.passage as ScoredPassage, rel: { ...(judged[k] as RelProbs) } });
    return false;
  });
  if (skipped.length) {
    ctx.tree.skipped = [...(ctx.tree.skipped ?? []), ...skipped];
    ctx.emit({ type: 'gated', depth, parentId, skipped });
  }
  return { planned: planned.filter((_, i) => keep[i]), rels: rels.filter((_, i) => keep[i]) };
}
