// The steps of an answer once the controller has started it (controller.ts: `ask`): evidence only
// (the best passages, ordered by relevance), or a generator (the ports', counting its calls and
// seeing the conversation) and the core's decode, each event streamed into the answer. Loaded with
// the first question, as the decode is.
import type { Generator, RelProbs, Retriever } from '../../core/ports';
import { partialCoverage } from '../view/meaning-coverage';
import type { AnswerTree } from '../../core/types';
import { generatorInThread } from '../../core/conversation/in-thread';
import { readingsRetriever } from '../../core/conversation/search-plan';
import type { PassageJudge } from '../../core/hybrid';
import { cachedJudge } from '../../core/relevance-cache';
import { isAbort } from '../../core/errors';
import type { AskOptions, ControllerRunner as Runner } from './controller';

function message(e: unknown): string {
  if (e instanceof Error) {
    const s = (e as Error & { suggestion?: string }).suggestion;
    return s ? `${e.message} ${s}` : e.message;
  }
  return String(e);
}

/** Counts every generator call so the page (and tests) can show that re-ranking made none. */
function counting(gen: Generator, onCall: () => void): Generator {
  return {
    decideRetrieval: (req) => {
      onCall();
      return gen.decideRetrieval(req);
    },
    generateSegments: (reqs) => {
      onCall();
      return gen.generateSegments(reqs);
    },
    ...(gen.judgePassages
      ? {
          judgePassages: (question, passages, signal) => {
            onCall();
            return gen.judgePassages!(question, passages, signal);
          },
        }
      : {}),
    cost: gen.cost ? () => gen.cost!() : undefined,
    // The default critique source asks whether the model grades itself natively (core/critique-source.ts).
    native: gen.native === true,
  };
}

/** One run: its id (the answer it may change), its abort signal, and the forms its question is searched by. */
interface Run {
  id: number;
  signal: AbortSignal;
  readings?: string[];
}

/**
 * The settings' retriever, searching every reading of the run's question where there are several.
 * Its first search notes how much of the library search by meaning reached then, when not all of
 * it (documents still waiting for their vectors are found by their words): the answer says so.
 */
async function retrieverFor(r: Runner, question: string, run: Run, judge?: PassageJudge): Promise<Retriever> {
  const base = await r.ports.retriever(r.page.get().settings.retrieval, judge);
  const searched = readingsRetriever(base, question, run.readings ?? []);
  let noted = false;
  return {
    retrieve(query, k, signal) {
      if (!noted) {
        noted = true;
        const coverage = partialCoverage(r.ports.meaningCoverage?.());
        if (coverage) r.page.dispatch({ type: 'coverageNoted', runId: run.id, coverage });
      }
      return searched.retrieve(query, k, signal);
    },
  };
}

/**
 * The run's generator as the re-rank's judge, where the settings ask for it and the model can be
 * asked (a prompted one: a native Self-RAG model is not); otherwise the cross-encoder re-ranks.
 */
function judgeOf(r: Runner, gen: Generator): PassageJudge | undefined {
  const { retrieval } = r.page.get().settings;
  if (!retrieval.rerank || retrieval.reranker !== 'generator' || gen.native || !gen.judgePassages) return undefined;
  return cachedJudge((query, passages, signal) => gen.judgePassages!(query, passages, signal));
}

/** Evidence only: the best passages, ordered by relevance (or by the re-rank that already ordered them). */
async function findEvidence(r: Runner, question: string, run: Run): Promise<void> {
  const { settings } = r.page.get();
  const retriever = await retrieverFor(r, question, run);
  const passages = await retriever.retrieve(question, Math.max(5, settings.decode.passagesPerStep), run.signal);
  let rels: (RelProbs | null)[] = passages.map(() => null);
  try {
    const critic = await r.ports.critic();
    if (critic && passages.length > 0) rels = await critic.relevance(question, passages, run.signal);
  } catch (e) {
    if (isAbort(e)) throw e;
    // Relevance badges are a bonus here; the passages are still worth showing.
  }
  const pairs = passages.map((passage, i) => ({ passage, rel: rels[i] ?? null }));
  // A re-ranked retrieval already ordered them (cross-encoder mixed with the first stage); otherwise relevance orders them.
  const ranked = passages.some((p) => p.ranks?.rerank !== undefined)
    ? pairs
    : pairs.sort((a, b) => (b.rel ? b.rel.relevant : b.passage.score) - (a.rel ? a.rel.relevant : a.passage.score));
  r.page.dispatch({ type: 'evidenceFound', runId: run.id, passages: ranked });
}

async function answerWithEvidence(r: Runner, question: string, run: Run): Promise<void> {
  try {
    await findEvidence(r, question, run);
  } catch (e) {
    r.page.dispatch(
      isAbort(e) ? { type: 'runStopped', runId: run.id } : { type: 'runFailed', runId: run.id, message: message(e) },
    );
  }
}

/** The generator for this run, seeing the conversation; null (and the page says why) when none can be had. */
async function generatorFor(
  r: Runner,
  run: Run,
  thread: Pick<AskOptions, 'context' | 'earlier'> & { asked?: string },
): Promise<Generator | null> {
  try {
    const raw = await r.ports.generator();
    const writer = r.ports.writtenBy?.(raw);
    if (writer) r.page.dispatch({ type: 'writerKnown', runId: run.id, writer });
    if (r.counted?.raw !== raw)
      r.counted = { raw, wrapped: counting(raw, () => r.page.dispatch({ type: 'generatorCalled' })) };
    return generatorInThread(r.counted.wrapped, thread);
  } catch (e) {
    const reason = `No answer can be written: ${message(e)} Showing the best passages instead.`;
    r.page.dispatch({ type: 'generatorMissing', runId: run.id, reason });
    return null;
  }
}

/** The core's decode over the ports, each event streamed into the answer. */
async function writeAnswer(r: Runner, question: string, run: Run, generator: Generator): Promise<void> {
  const { decode: decodeSettings, rank, corrective, crag } = r.page.get().settings;
  const current = () => r.page.get().answer.runId === run.id;
  try {
    const [retriever, critic, corrector] = await Promise.all([
      retrieverFor(r, question, run, judgeOf(r, generator)),
      r.ports.critic().catch(() => undefined),
      corrective && r.ports.corrector ? r.ports.corrector(crag) : undefined,
    ]);
    const result = await r.decode(question, { generator, retriever, critic, corrector }, decodeSettings, rank, {
      signal: run.signal,
      onEvent: (event) => {
        if (current()) r.page.dispatch({ type: 'decodeEvent', runId: run.id, event });
      },
    });
    if (!current()) return;
    r.page.dispatch({ type: 'runFinished', runId: run.id, result });
    // The user may have moved a weight while it ran: show the ranking for today's weights.
    if (r.page.get().settings.rank !== rank) r.page.dispatch({ type: 'rankCaughtUp' });
  } catch (e) {
    if (!current()) return;
    if (isAbort(e)) return r.page.dispatch({ type: 'runStopped', runId: run.id });
    // The core hands back what it finished before the bad input: keep showing it.
    const partial = (e as { partial?: AnswerTree }).partial;
    r.page.dispatch({ type: 'runFailed', runId: run.id, message: message(e), ...(partial ? { partial } : {}) });
  }
}

/** Writes the answer of a started run: with passages only where no answer can be written. */
export async function answer(
  r: Runner,
  question: string,
  started: { id: number; signal: AbortSignal },
  opts: Pick<AskOptions, 'context' | 'earlier' | 'readings'> & { asked?: string },
): Promise<void> {
  const run: Run = { ...started, ...(opts.readings ? { readings: opts.readings } : {}) };
  if (r.page.get().evidenceOnly) return answerWithEvidence(r, question, run);
  const generator = await generatorFor(r, run, opts);
  if (r.page.get().answer.runId !== run.id) return;
  if (!generator) return answerWithEvidence(r, question, run);
  await writeAnswer(r, question, run, generator);
}
