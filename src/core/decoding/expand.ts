// Expanding one beam item (Algorithm 1, lines 2–8 for one node): plan the step, let the gate and
// the budget trim it, write one candidate per remaining passage in one batch call, have the
// evaluator critique them, and build the candidates with the critique source applied.
import { combineRel, combineSup } from '../critique';
import type { GeneratedSegment, SegmentRequest } from '../ports';
import type { Candidate } from '../types';
import { withinBudget } from './budget';
import { checkSegments } from './checks';
import type { DecodeContext, Plan } from './context';
import { evaluate, type Judgement } from './evaluate';
import { gate } from './gate';
import { planStep } from './plan';

export async function expand(ctx: DecodeContext, parent: Candidate | null): Promise<Candidate[]> {
  const depth = parent ? parent.depth + 1 : 0;
  const parentId = parent?.id ?? null;
  const previous = ctx.pathTexts(parent);
  const all = await planStep(ctx, parent, depth, previous);
  if (!Array.isArray(all)) return [all];
  const { planned, rels } = withinBudget(
    await gate(ctx, all, depth, parentId),
    ctx.settings.maxCandidates ?? 0,
    ctx.written,
  );
  const segments = await write(ctx, planned, depth, parentId, previous);
  const judged = await evaluate(ctx, planned, segments, rels);
  ctx.checkpoint();
  return planned.map((p, i) => candidate(ctx, p, segments[i] as GeneratedSegment, judged[i], parentId, depth));
}

/** One batch call to the generator: a candidate per plan, each streaming its text as it is written. */
async function write(
  ctx: DecodeContext,
  planned: Plan[],
  depth: number,
  parentId: string | null,
  previous: string[],
): Promise<GeneratedSegment[]> {
  // The generator reads only the critiques the critique source will use.
  const critiques = { rel: ctx.source !== 'evaluator', sup: ctx.source !== 'evaluator' };
  const reqs: SegmentRequest[] = planned.map((p) => ({
    question: ctx.question,
    previous,
    passage: p.passage,
    signal: ctx.signal,
    critiques,
    onText: (text: string) => ctx.emit({ type: 'text', depth, parentId, passageId: p.passage?.id ?? null, text }),
  }));
  ctx.checkpoint();
  ctx.written += reqs.length;
  const segments = await ctx.ports.generator.generateSegments(reqs);
  ctx.checkpoint();
  checkSegments(segments, reqs.length, depth);
  return segments;
}

/** A written candidate, its critiques from the source the settings chose. */
function candidate(
  ctx: DecodeContext,
  p: Plan,
  seg: GeneratedSegment,
  ev: Judgement,
  parentId: string | null,
  depth: number,
): Candidate {
  const gen = { ...pick(seg, 'rel'), ...pick(seg, 'sup'), ...pick(seg, 'use') };
  const c: Candidate = {
    ...ctx.blank(parentId, depth),
    text: seg.text,
    passage: p.passage,
    retrieve: p.retrieve,
    fromGenerator: gen,
    tokenCount: seg.tokenCount,
    done: seg.done,
  };
  // Algorithm 1: without a passage only ISUSE is predicted, so only ISUSE scores.
  if (p.passage) {
    const rel = combineRel(ctx.source, ctx.settings.blend, gen.rel, ev?.rel);
    const sup = combineSup(ctx.source, ctx.settings.blend, gen.sup, ev?.sup);
    if (rel) c.rel = rel;
    if (sup) c.sup = sup;
  }
  if (gen.use) c.use = gen.use;
  if (ev) c.fromEvaluator = ev;
  if (p.correction) c.correction = p.correction;
  if (seg.logprob !== undefined) c.logprob = seg.logprob;
  if (seg.problem !== undefined) c.problem = seg.problem;
  if (seg.withheld !== undefined) c.withheld = { ...seg.withheld };
  return c;
}

function pick<K extends 'rel' | 'sup' | 'use'>(seg: GeneratedSegment, key: K): Pick<GeneratedSegment, K> {
  return (seg[key] === undefined ? {} : { [key]: seg[key] }) as Pick<GeneratedSegment, K>;
}
