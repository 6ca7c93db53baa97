import type {
  Corrector,
  CorrectionAction,
  ExternalSearch,
  KnowledgeSource,
  KnowledgeStrip,
  Retriever,
  RetrievalCorrection,
  ScoredPassage,
  Writer,
} from '../ports';
import { classifyRetrieval } from './action';
import { refineKnowledge, type ScoreFn } from './refine';
import { rewriteQuery } from './rewrite';
import { resolveCragSettings, type CragSettings } from './settings';
import { errorMessage } from '../errors';

export interface CorrectorDeps {
  /** The retrieval evaluator: relevance probability of each text for the question (cross-encoder + sigmoid). */
  score: ScoreFn;
  /** Rewrites the question into search keywords. */
  writer: Writer;
  /** The library, searched again with the rewrite. */
  retriever: Retriever;
  /** Optional outside source, consulted only when `settings.externalEnabled` and `online()`. */
  external?: ExternalSearch;
  /** Whether the page is online; the core cannot ask the browser itself. Defaults to true. */
  online?: () => boolean;
  settings?: Partial<CragSettings>;
}

interface Evaluated {
  passage: ScoredPassage;
  score: number;
  source: KnowledgeSource;
}

/** The retrieval evaluator's score for each passage, against the original question. */
async function evaluatePassages(
  score: ScoreFn,
  question: string,
  passages: ScoredPassage[],
  source: KnowledgeSource,
  signal?: AbortSignal,
): Promise<Evaluated[]> {
  if (!passages.length) return [];
  const scores = await score(
    question,
    passages.map((p) => p.text),
    signal,
  );
  if (scores.length !== passages.length) {
    throw new Error(`retrieval evaluator returned ${scores.length} scores for ${passages.length} passages`);
  }
  return passages.map((passage, i) => ({ passage, score: scores[i] ?? 0, source }));
}

function refineUsable(
  score: ScoreFn,
  settings: CragSettings,
  question: string,
  items: Evaluated[],
  source: KnowledgeSource,
  signal?: AbortSignal,
) {
  // A passage the evaluator puts below the lower threshold is, on its own, Incorrect: never refined into evidence.
  const usable = items.filter((e) => e.score >= settings.lower).map((e) => e.passage);
  return refineKnowledge(question, usable, score, {
    stripThreshold: settings.stripThreshold,
    stripTopK: settings.stripTopK,
    sentencesPerStrip: settings.sentencesPerStrip,
    stripPool: settings.stripPool,
    source,
    signal,
  });
}

/**
 * CRAG Algorithm 1 as a Self-CRAG plug: Correct → refine the retrieval; Incorrect → discard
 * it and search again with a keyword rewrite; Ambiguous → both. The re-search replaces the
 * paper's web search with the local library, and the external source joins it only when the
 * user enabled it and the page is online. Anything found is scored against the original
 * question and goes through the same refinement. Nothing found → `noEvidence`, no passages:
 * evidence is never invented.
 */
export function createCorrector(deps: CorrectorDeps): Corrector {
  const settings = resolveCragSettings(deps.settings);
  const online = deps.online ?? (() => true);
  // The decode corrects every retrieval step of a question; its keywords do not change, and
  // each rewrite is a generator call. Failed or aborted rewrites are not kept.
  const rewrites = new Map<string, string>();
  async function keywords(question: string, signal?: AbortSignal): Promise<string> {
    const known = rewrites.get(question);
    if (known !== undefined) return known;
    const fresh = await rewriteQuery(deps.writer, question, signal);
    if (rewrites.size >= 32) rewrites.delete(rewrites.keys().next().value as string);
    rewrites.set(question, fresh);
    return fresh;
  }

  const evaluate = (question: string, passages: ScoredPassage[], source: KnowledgeSource, signal?: AbortSignal) =>
    evaluatePassages(deps.score, question, passages, source, signal);
  const refine = (question: string, items: Evaluated[], source: KnowledgeSource, signal?: AbortSignal) =>
    refineUsable(deps.score, settings, question, items, source, signal);

  return {
    async correct(question, passages, signal): Promise<RetrievalCorrection> {
      const notes: string[] = [];
      const evaluated = await evaluate(question, passages, 'retrieval', signal);
      signal?.throwIfAborted();
      const action: CorrectionAction = classifyRetrieval(
        evaluated.map((e) => e.score),
        settings.upper,
        settings.lower,
      );
      const strips: KnowledgeStrip[] = [];
      const knowledge: ScoredPassage[] = [];
      const scoreOf = new Map<string, number>(evaluated.map((e) => [e.passage.id, e.score]));

      if (action !== 'incorrect') {
        const internal = await refine(question, evaluated, 'retrieval', signal);
        strips.push(...internal.strips);
        knowledge.push(...internal.passages);
        notes.push(
          `${action}: kept ${countKept(internal.strips)} of ${internal.strips.length} strips from the retrieval`,
        );
      } else {
        notes.push(
          passages.length
            ? 'incorrect: every retrieved passage scored below the lower threshold; discarded'
            : 'incorrect: nothing was retrieved',
        );
      }

      let rewrite: string | undefined;
      if (action !== 'correct' || knowledge.length === 0) {
        if (action === 'correct') notes.push('refinement kept nothing; searching again');
        signal?.throwIfAborted();
        rewrite = await keywords(question, signal);
        signal?.throwIfAborted();
        const seen = new Set(passages.map((p) => p.id));
        const found = (await deps.retriever.retrieve(rewrite, settings.k, signal)).filter((p) => !seen.has(p.id));
        const research = await evaluate(question, found, 'research', signal);
        evaluated.push(...research);
        const refined = await refine(question, research, 'research', signal);
        strips.push(...refined.strips);
        knowledge.push(...refined.passages);
        for (const e of research) scoreOf.set(e.passage.id, e.score);
        notes.push(
          `re-searched the library for "${rewrite}": ${refined.passages.length} of ${found.length} new passages kept`,
        );

        if (!settings.externalEnabled) {
          notes.push('external search is off');
        } else if (!deps.external) {
          notes.push('external search is on but no source is configured');
        } else if (!online()) {
          notes.push(`offline: ${deps.external.name} not consulted`);
        } else {
          try {
            const outside = await evaluate(
              question,
              await deps.external.search(rewrite, settings.k, signal),
              'external',
              signal,
            );
            evaluated.push(...outside);
            const refinedOutside = await refine(question, outside, 'external', signal);
            strips.push(...refinedOutside.strips);
            knowledge.push(...refinedOutside.passages);
            for (const e of outside) scoreOf.set(e.passage.id, e.score);
            notes.push(`${deps.external.name}: ${refinedOutside.passages.length} of ${outside.length} results kept`);
          } catch (err) {
            signal?.throwIfAborted();
            notes.push(`${deps.external.name} failed: ${errorMessage(err)}`);
          }
        }
      }

      const unique = dedupe(knowledge)
        .sort((a, b) => (scoreOf.get(b.id) ?? 0) - (scoreOf.get(a.id) ?? 0))
        .slice(0, Math.max(settings.k, passages.length));
      const record = {
        action,
        passages: unique,
        rewrite,
        evaluated: evaluated.map((e) => ({ passageId: e.passage.id, score: e.score, source: e.source })),
        strips,
      };
      if (!unique.length) {
        notes.push(
          settings.noEvidence === 'abstain'
            ? 'no reliable evidence found: abstaining'
            : 'no reliable evidence found: answering without retrieval',
        );
        return { ...record, noEvidence: settings.noEvidence, details: notes.join('; ') };
      }
      return { ...record, details: notes.join('; ') };
    },
  };
}

function countKept(strips: KnowledgeStrip[]): number {
  return strips.filter((s) => s.kept).length;
}

function dedupe(passages: ScoredPassage[]): ScoredPassage[] {
  const seen = new Set<string>();
  return passages.filter((p) => (seen.has(p.id) ? false : (seen.add(p.id), true)));
}
