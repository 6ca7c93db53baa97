// Self-RAG inference (Algorithm 1) with the critique-guided segment beam search of Sec. 3.3.
//
// Read it as the paper writes it. For every node on the beam (./decoding/expand.ts):
//   1. decide whether to retrieve (./decoding/retrieve-decision.ts: adaptive, always, never);
//   2. if so, retrieve with the question plus the node's own segment, and let Self-CRAG's
//      corrector act on what came back (./decoding/plan.ts);
//   3. gate the passages on the evaluator's relevance and keep within the candidate budget
//      (./decoding/gate.ts, ./decoding/budget.ts);
//   4. write one candidate per passage in ONE batch call, and critique each
//      (./decoding/evaluate.ts, the generator's own critiques arriving with the segment);
// then keep the best B paths per depth (./beam.ts) and expand them, until every path has ended.
//
// Abort: decode never throws on abort. It stops before its next port call once the signal is
// aborted, discards the step in flight, and resolves with `aborted: true` and the tree of
// everything finished so far (ranked like any other tree). The signal is passed to every port
// so a long generation can stop early too.
import { runBeam } from './beam';
import { resolveCritiqueSource } from './critique-source';
import { DecodeContext, type DecodePorts, Stop } from './decoding/context';
import { expand } from './decoding/expand';
import { CoreInputError } from './errors';
import { validateDecodeSettings, validateRankSettings } from './settings';
import type { Candidate, DecodeEvent, DecodeResult, DecodeSettings, RankSettings } from './types';

export type { DecodePorts } from './decoding/context';

export interface DecodeOptions {
  signal?: AbortSignal;
  onEvent?: (e: DecodeEvent) => void;
}

export async function decode(
  question: string,
  ports: DecodePorts,
  settings: DecodeSettings,
  rank: RankSettings,
  opts: DecodeOptions = {},
): Promise<DecodeResult> {
  const ctx = start(question, ports, settings, rank, opts);
  const result = (aborted: boolean): DecodeResult => ({
    tree: ctx.tree,
    ranking: runBeam(ctx.tree, rank).ranking,
    aborted,
  });
  try {
    let frontier: (Candidate | null)[] = [null];
    while (frontier.length > 0) frontier = await step(ctx, frontier, rank);
    return result(false);
  } catch (e) {
    // After an abort, whatever a port threw (an AbortError, usually) is the abort itself.
    if (e instanceof Stop || ctx.signal?.aborted) return result(true);
    if (e instanceof CoreInputError && !e.partial) {
      throw new CoreInputError(e.message, { ...ctx.tree, candidates: [...ctx.tree.candidates] });
    }
    throw e;
  }
}

/** Checks the input and sets up one decode; 'auto' critiques are resolved once per answer. */
function start(
  question: string,
  ports: DecodePorts,
  settings: DecodeSettings,
  rank: RankSettings,
  opts: DecodeOptions,
): DecodeContext {
  if (typeof question !== 'string' || question.trim() === '') {
    throw new CoreInputError('The question is empty: type a question to answer.');
  }
  validateDecodeSettings(settings);
  validateRankSettings(rank);
  if (!ports?.generator || !ports.retriever) throw new CoreInputError('decode needs a generator and a retriever.');
  if (settings.critiqueSource !== 'generator' && settings.critiqueSource !== 'auto' && !ports.critic) {
    throw new CoreInputError(
      `Critique source '${settings.critiqueSource}' needs the evaluator (critic), which is not available; choose 'generator'.`,
    );
  }
  const source = resolveCritiqueSource(settings.critiqueSource, {
    nativeGenerator: ports.generator.native === true,
    critic: !!ports.critic,
  });
  return new DecodeContext(question, ports, settings, source, opts.signal, opts.onEvent);
}

/**
 * One depth: expand every node of the frontier, then choose the best B paths (the beam) and
 * return the nodes to expand next; empty when every kept path has ended.
 */
async function step(ctx: DecodeContext, frontier: (Candidate | null)[], rank: RankSettings): Promise<Candidate[]> {
  for (const parent of frontier) {
    // The budget is spent: the paths not yet extended end where they are.
    if (ctx.budgetSpent()) break;
    ctx.checkpoint();
    for (const c of await expand(ctx, parent)) ctx.add(c);
  }
  const run = runBeam(ctx.tree, rank);
  const depth = (frontier[0]?.depth ?? -1) + 1;
  const kept = run.beams[depth] ?? [];
  ctx.emit({ type: 'beam', depth, kept });
  // The best path so far has ended: the other beams would only be written to be compared with it.
  if (ctx.settings.stopAtFirstAnswer && kept[0] !== undefined && ctx.get(kept[0])?.done) return [];
  if (ctx.budgetSpent()) return [];
  return run.frontier;
}
