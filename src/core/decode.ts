// Self-RAG inference (Algorithm 1) with the critique-guided segment beam search of Sec. 3.3.
//
// For every node on the beam: decide whether to retrieve (adaptive, always, never); if so,
// retrieve with the question plus the node's own segment (Algorithm 1: "given (x, y_{t-1})"),
// optionally correct the retrieval (Self-CRAG), write one candidate per passage in ONE batch
// call, critique each, then keep the best B paths per depth (beam.ts).
//
// Abort: decode never throws on abort. It stops before its next port call once the signal
// is aborted, discards the step in flight, and resolves with `aborted: true` and the tree of
// everything finished so far (ranked like any other tree). The signal is passed to every
// port so a long generation can stop early too.
import { runBeam } from './beam';
import { combineRel, combineSup } from './critique';
import { resolveCritiqueSource } from './critique-source';
import { CoreInputError } from './errors';
import type {
  Corrector,
  Critic,
  GeneratedSegment,
  Generator,
  RelProbs,
  RetrieveProbs,
  Retriever,
  ScoredPassage,
  SegmentRequest,
  SupProbs,
} from './ports';
import { normaliseGroup, normaliseRel, normaliseSup, normaliseUse, retrieveProbability } from './scores';
import { validateDecodeSettings, validateRankSettings } from './settings';
import type {
  AnswerTree,
  Candidate,
  DecodeEvent,
  DecodeResult,
  DecodeSettings,
  RankSettings,
  SkippedPassage,
} from './types';

export interface DecodePorts {
  generator: Generator;
  retriever: Retriever;
  /** Required when `critiqueSource` is 'evaluator' or 'blend'. */
  critic?: Critic;
  /** Self-CRAG: sits between retrieval and generation. */
  corrector?: Corrector;
}

export interface DecodeOptions {
  signal?: AbortSignal;
  onEvent?: (e: DecodeEvent) => void;
}

/** Thrown inside the loop when the signal is seen aborted; never leaves `decode`. */
class Stop extends Error {}

/** A segment to write: its passage (or none) and the decision that led to it. */
interface Plan {
  passage: ScoredPassage | null;
  retrieve: Candidate['retrieve'];
  correction?: Candidate['correction'];
}

export async function decode(
  question: string,
  ports: DecodePorts,
  settings: DecodeSettings,
  rank: RankSettings,
  opts: DecodeOptions = {},
): Promise<DecodeResult> {
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

  // 'auto' is decided once per answer, from the generator's kind and whether the evaluator is here.
  const source = resolveCritiqueSource(settings.critiqueSource, {
    nativeGenerator: ports.generator.native === true,
    critic: !!ports.critic,
  });
  const { signal, onEvent } = opts;
  const emit = (e: DecodeEvent): void => onEvent?.(e);
  const tree: AnswerTree = { question, settings: { ...settings }, candidates: [] };
  if (settings.critiqueSource === 'auto') tree.critiquesFrom = source;
  const byId = new Map<string, Candidate>();
  let nextId = 0;
  /** Candidates written so far, against settings.maxCandidates. */
  let written = 0;
  const budgetSpent = (): boolean => !!settings.maxCandidates && written >= settings.maxCandidates;

  const checkpoint = (): void => {
    if (signal?.aborted) throw new Stop();
  };
  const pathTexts = (node: Candidate | null): string[] => {
    const texts: string[] = [];
    for (let n = node; n; n = n.parentId === null ? null : (byId.get(n.parentId) ?? null)) texts.unshift(n.text);
    return texts;
  };
  const result = (aborted: boolean): DecodeResult => ({ tree, ranking: runBeam(tree, rank).ranking, aborted });

  async function plan(parent: Candidate | null, depth: number, previous: string[]): Promise<Plan[] | Candidate> {
    const parentId = parent?.id ?? null;
    let probs: RetrieveProbs | null = null;
    let decision: 'retrieve' | 'no' | 'continue' = settings.mode === 'always' ? 'retrieve' : 'no';
    if (settings.mode === 'adaptive') {
      checkpoint();
      probs = await ports.generator.decideRetrieval({ question, previous, signal });
      checkpoint();
      // Table 1: "continue" keeps using the evidence already in hand. It needs a passage
      // on the parent; otherwise the threshold on [Retrieval] vs [No Retrieval] decides.
      // Checked first: a native model sure to continue leaves the other two outside its
      // top 5 (both 0), which the threshold cannot divide.
      const cont = probs.continueEvidence;
      const p = (): number => withContext('Retrieval decision', () => retrieveProbability(probs as RetrieveProbs));
      if (parent?.passage && cont !== undefined && cont > probs.retrieval && cont > probs.noRetrieval) {
        withContext('Retrieval decision', () =>
          normaliseGroup('Retrieve', [probs!.retrieval, probs!.noRetrieval, cont]),
        );
        decision = 'continue';
      } else if (cont !== undefined && cont > 0 && probs.retrieval === 0 && probs.noRetrieval === 0) {
        withContext('Retrieval decision', () => normaliseGroup('Retrieve', [0, 0, cont]));
        decision = 'no'; // continuing without evidence in hand: go on without retrieving
      } else {
        decision = p() > settings.threshold ? 'retrieve' : 'no';
      }
    }
    emit({ type: 'retrieval-decision', depth, parentId, probs, retrieve: decision === 'retrieve' });

    if (decision === 'continue' && parent?.passage) {
      return [{ passage: parent.passage, retrieve: { probs, retrieved: false, reason: 'continue' } }];
    }
    const reason = settings.mode;
    if (decision === 'no') return [{ passage: null, retrieve: { probs, retrieved: false, reason } }];

    const lastSegment = previous[previous.length - 1];
    const query = lastSegment ? `${question}\n${lastSegment}` : question;
    checkpoint();
    let passages = checkPassages(await ports.retriever.retrieve(query, settings.passagesPerStep, signal)).slice(
      0,
      settings.passagesPerStep,
    );
    checkpoint();
    emit({ type: 'retrieved', depth, parentId, passages });

    let correction: Candidate['correction'];
    if (ports.corrector) {
      const fix = await ports.corrector.correct(question, passages, signal);
      checkpoint();
      correction = { action: fix.action };
      if (fix.details !== undefined) correction.details = fix.details;
      if (fix.noEvidence !== undefined) correction.noEvidence = fix.noEvidence;
      if (fix.rewrite !== undefined) correction.rewrite = fix.rewrite;
      // Copied so a corrector reusing its arrays cannot change what the answer page shows later.
      if (Array.isArray(fix.strips)) correction.strips = fix.strips.map((s) => ({ ...s }));
      if (fix.noEvidence === 'abstain') {
        return {
          ...blank(parentId, depth),
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

  const blank = (parentId: string | null, depth: number) => ({
    id: `c${nextId++}`,
    parentId,
    depth,
    text: '',
    passage: null,
    fromGenerator: {},
    tokenCount: 0,
    done: false,
  });

  async function expand(parent: Candidate | null): Promise<Candidate[]> {
    const depth = parent ? parent.depth + 1 : 0;
    const parentId = parent?.id ?? null;
    const previous = pathTexts(parent);
    const all = await plan(parent, depth, previous);
    if (!Array.isArray(all)) return [all];
    const gated = await gate(all, depth, parentId);
    const { planned, rels: judged } = withinBudget(gated.planned, gated.rels);

    const reqs: SegmentRequest[] = planned.map((p) => ({
      question,
      previous,
      passage: p.passage,
      signal,
      onText: (text: string) => emit({ type: 'text', depth, parentId, passageId: p.passage?.id ?? null, text }),
    }));
    checkpoint();
    written += reqs.length;
    const segments = await ports.generator.generateSegments(reqs);
    checkpoint();
    if (!Array.isArray(segments) || segments.length !== reqs.length) {
      throw new CoreInputError(
        `The generator returned ${Array.isArray(segments) ? segments.length : 'no list of'} segments for ${reqs.length} requests.`,
      );
    }
    segments.forEach((s, i) => checkSegment(s, `Generated segment ${i + 1} at depth ${depth}`));

    const fromEvaluator = await evaluate(planned, segments, judged);
    checkpoint();

    return planned.map((p, i): Candidate => {
      const seg = segments[i] as GeneratedSegment;
      const gen = { ...pick(seg, 'rel'), ...pick(seg, 'sup'), ...pick(seg, 'use') };
      const ev = fromEvaluator[i];
      const c: Candidate = {
        ...blank(parentId, depth),
        text: seg.text,
        passage: p.passage,
        retrieve: p.retrieve,
        fromGenerator: gen,
        tokenCount: seg.tokenCount,
        done: seg.done,
      };
      // Algorithm 1: without a passage only ISUSE is predicted, so only ISUSE scores.
      if (p.passage) {
        const rel = combineRel(source, settings.blend, gen.rel, ev?.rel);
        const sup = combineSup(source, settings.blend, gen.sup, ev?.sup);
        if (rel) c.rel = rel;
        if (sup) c.sup = sup;
      }
      if (gen.use) c.use = gen.use;
      if (ev) c.fromEvaluator = ev;
      if (p.correction) c.correction = p.correction;
      if (seg.logprob !== undefined) c.logprob = seg.logprob;
      if (seg.problem !== undefined) c.problem = seg.problem;
      return c;
    });
  }

  /**
   * The relevance gate: the evaluator judges the step's passages before any candidate is
   * written, and a passage below the gate gets no candidate (a candidate costs a whole
   * constrained decode; a judgement, one cross-encoder pass). The step's most relevant
   * passage is always kept, so the gate never leaves a step with nothing to write.
   * Returns the kept plans and, aligned with them, the judgements already made.
   */
  async function gate(
    planned: Plan[],
    depth: number,
    parentId: string | null,
  ): Promise<{ planned: Plan[]; rels?: (RelProbs | undefined)[] }> {
    const threshold = settings.relevanceGate ?? 0;
    const critic = ports.critic;
    const idx = planned.flatMap((p, i) => (p.passage ? [i] : []));
    if (!(threshold > 0) || !critic || idx.length < 2) return { planned };
    checkpoint();
    const judged = await critic.relevance(
      question,
      idx.map((i) => planned[i]?.passage as ScoredPassage),
      signal,
    );
    checkpoint();
    if (!Array.isArray(judged) || judged.length !== idx.length) {
      throw new CoreInputError(
        `The evaluator returned a different number of judgements than the ${idx.length} passages it was given.`,
      );
    }
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
      tree.skipped = [...(tree.skipped ?? []), ...skipped];
      emit({ type: 'gated', depth, parentId, skipped });
    }
    return { planned: planned.filter((_, i) => keep[i]), rels: rels.filter((_, i) => keep[i]) };
  }

  /** The candidate budget: what is left of it, most relevant passages first. */
  function withinBudget(
    planned: Plan[],
    rels?: (RelProbs | undefined)[],
  ): { planned: Plan[]; rels?: (RelProbs | undefined)[] } {
    if (!settings.maxCandidates) return rels ? { planned, rels } : { planned };
    const room = Math.max(0, settings.maxCandidates - written);
    if (planned.length <= room) return rels ? { planned, rels } : { planned };
    const order = planned.map((_, i) => i);
    if (rels) order.sort((a, b) => relevance(rels[b]) - relevance(rels[a]));
    const keep = order.slice(0, Math.max(1, room)).sort((a, b) => a - b);
    return { planned: keep.map((i) => planned[i]!), ...(rels ? { rels: keep.map((i) => rels[i]) } : {}) };
  }
  const relevance = (r: RelProbs | undefined): number => (r ? normaliseRel(r).relevant : -1);

  async function evaluate(
    planned: Plan[],
    segments: GeneratedSegment[],
    known?: (RelProbs | undefined)[],
  ): Promise<({ rel: RelProbs; sup: SupProbs } | undefined)[]> {
    const critic = ports.critic;
    const idx = planned.flatMap((p, i) => (p.passage ? [i] : []));
    if (source === 'generator' || !critic || idx.length === 0) return planned.map(() => undefined);
    const passages = idx.map((i) => planned[i]?.passage as ScoredPassage);
    const pairs = idx.map((i) => ({ passage: planned[i]?.passage as ScoredPassage, text: segments[i]?.text ?? '' }));
    checkpoint();
    // Judged by the gate already: the passages and the question are the same, so is the judgement.
    const reuse = known && idx.every((i) => known[i] !== undefined);
    const [rels, sups] = await Promise.all([
      reuse ? idx.map((i) => known[i] as RelProbs) : critic.relevance(question, passages, signal),
      critic.support(pairs, signal),
    ]);
    if (!Array.isArray(rels) || rels.length !== idx.length || !Array.isArray(sups) || sups.length !== idx.length) {
      throw new CoreInputError(
        `The evaluator returned a different number of judgements than the ${idx.length} passages it was given.`,
      );
    }
    const out: ({ rel: RelProbs; sup: SupProbs } | undefined)[] = planned.map(() => undefined);
    idx.forEach((i, k) => {
      const rel = rels[k] as RelProbs;
      const sup = sups[k] as SupProbs;
      withContext(`Evaluator relevance of passage ${k + 1}`, () => normaliseRel(rel));
      withContext(`Evaluator support of passage ${k + 1}`, () => normaliseSup(sup));
      out[i] = { rel, sup };
    });
    return out;
  }

  try {
    let frontier: (Candidate | null)[] = [null];
    while (frontier.length > 0) {
      for (const parent of frontier) {
        // The budget is spent: the paths not yet extended end where they are.
        if (budgetSpent()) break;
        checkpoint();
        for (const c of await expand(parent)) {
          tree.candidates.push(c);
          byId.set(c.id, c);
          emit({ type: 'candidate', candidate: c });
        }
      }
      const run = runBeam(tree, rank);
      const depth = (frontier[0]?.depth ?? -1) + 1;
      const kept = run.beams[depth] ?? [];
      emit({ type: 'beam', depth, kept });
      frontier = run.frontier;
      // The best path so far has ended: the other beams would only be written to be compared with it.
      if (settings.stopAtFirstAnswer && kept[0] !== undefined && byId.get(kept[0])?.done) frontier = [];
      if (budgetSpent()) frontier = [];
    }
    return result(false);
  } catch (e) {
    // After an abort, whatever a port threw (an AbortError, usually) is the abort itself.
    if (e instanceof Stop || signal?.aborted) return result(true);
    if (e instanceof CoreInputError && !e.partial) {
      throw new CoreInputError(e.message, { ...tree, candidates: [...tree.candidates] });
    }
    throw e;
  }
}

function pick<K extends 'rel' | 'sup' | 'use'>(seg: GeneratedSegment, key: K): Pick<GeneratedSegment, K> {
  return (seg[key] === undefined ? {} : { [key]: seg[key] }) as Pick<GeneratedSegment, K>;
}

function withContext<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof CoreInputError) throw new CoreInputError(`${what}: ${e.message}`);
    throw e;
  }
}

function checkSegment(s: GeneratedSegment, what: string): void {
  if (!s || typeof s.text !== 'string') throw new CoreInputError(`${what}: the text is missing.`);
  if (!Number.isInteger(s.tokenCount) || s.tokenCount < 0) {
    throw new CoreInputError(`${what}: token count must be a non-negative integer; got ${String(s.tokenCount)}.`);
  }
  if (s.logprob !== undefined && (!Number.isFinite(s.logprob) || s.logprob > 0)) {
    throw new CoreInputError(`${what}: log-probability must be a finite number ≤ 0; got ${String(s.logprob)}.`);
  }
  if (s.rel) withContext(what, () => normaliseRel(s.rel as RelProbs));
  if (s.sup) withContext(what, () => normaliseSup(s.sup as SupProbs));
  if (s.use) {
    if (!Array.isArray(s.use) || s.use.length !== 5) throw new CoreInputError(`${what}: ISUSE needs 5 probabilities.`);
    withContext(what, () => normaliseUse(s.use as [number, number, number, number, number]));
  }
}

function checkPassages(passages: ScoredPassage[], from = 'retriever'): ScoredPassage[] {
  if (!Array.isArray(passages)) throw new CoreInputError(`The ${from} did not return a list of passages.`);
  for (const p of passages) {
    if (!p || typeof p.id !== 'string' || typeof p.text !== 'string' || typeof p.title !== 'string') {
      throw new CoreInputError(`The ${from} returned a passage without an id, title or text.`);
    }
  }
  return passages;
}
