// Algorithm 1, lines 2–3 and Self-CRAG's correction: after the retrieval decision, retrieve with
// the question plus the node's own last segment ("given (x, y_{t-1})"), let the corrector act on
// what came back, and plan one segment per passage (or one without a passage).
import type { Candidate } from '../types';
import { checkPassages } from './checks';
import type { DecodeContext, Plan } from './context';
import { decideRetrieval } from './retrieve-decision';

/** The step's plans, or a finished marker when the corrector abstained for lack of evidence. */
export async function planStep(
  ctx: DecodeContext,
  parent: Candidate | null,
  depth: number,
  previous: string[],
): Promise<Plan[] | Candidate> {
  const parentId = parent?.id ?? null;
  const { choice, probs } = await decideRetrieval(ctx, parent, previous);
  ctx.emit({ type: 'retrieval-decision', depth, parentId, probs, retrieve: choice === 'retrieve' });

  if (choice === 'continue' && parent?.passage) {
    return [{ passage: parent.passage, retrieve: { probs, retrieved: false, reason: 'continue' } }];
  }
  const reason = ctx.settings.mode;
  if (choice !== 'retrieve') return [{ passage: null, retrieve: { probs, retrieved: false, reason } }];

  const lastSegment = previous[previous.length - 1];
  const query = lastSegment ? `${ctx.question}\n${lastSegment}` : ctx.question;
  const k = ctx.settings.passagesPerStep;
  ctx.checkpoint();
  let passages = checkPassages(await ctx.ports.retriever.retrieve(query, k, ctx.signal)).slice(0, k);
  ctx.checkpoint();
  ctx.emit({ type: 'retrieved', depth, parentId, passages });

  let correction: Candidate['correction'];
  if (ctx.ports.corrector) {
    const fix = await ctx.ports.corrector.correct(ctx.question, passages, ctx.signal);
    ctx.checkpoint();
    correction = { action: fix.action };
    if (fix.details !== undefined) correction.details = fix.details;
    if (fix.noEvidence !== undefined) correction.noEvidence = fix.noEvidence;
    if (fix.rewrite !== undefined) correction.rewrite = fix.rewrite;
    // Copied so a corrector reusing its arrays cannot change what the answer page shows later.
    if (Array.isArray(fix.strips)) correction.strips = fix.strips.map((s) => ({ ...s }));
    if (fix.noEvidence === 'abstain') {
      return {
        ...ctx.blank(parentId, depth),
        retrieve: { probs, retrieved: true, reason, note: 'No reliable evidence was found, so this step abstained.' },
        correction,
        done: true,
      };
    }
    passages = fix.noEvidence === 'answer-without-retrieval' ? [] : checkPassages(fix.passages, 'corrector');
  }
  if (passages.length === 0) {
    const note = correction
      ? 'The corrector kept no evidence, so this segment was written without a passage.'
      : 'Retrieval found no passages, so this segment was written without one.';
    const p: Plan = { passage: null, retrieve: { probs, retrieved: true, reason, note } };
    if (correction) p.correction = correction;
    return [p];
  }
  return passages.map((passage) => {
    const p: Plan = { passage, retrieve: { probs, retrieved: true, reason } };
    if (correction) p.correction = correction;
    return p;
  });
}
