// The generator as a follow-up's decode sees it. A follow-up the model rewrote into a standalone
// question is asked as that question alone; one it could not rewrite is asked as typed, with the
// earlier questions beside it (never the earlier answers: a small model pastes what it is shown,
// issue 46). Measured on the labelled follow-ups with Qwen2.5-Coder-0.5B: a good rewrite ("What
// happens when a u8 overflows in a debug build?") asked with the earlier question beside it was
// answered as the earlier one ("…wrapping"), and alone as asked ("…panics"). Each segment request
// carries the earlier answers for the non-answer guard, which withholds a candidate that repeats
// one. The page's controller and the answer benches both ask through this.
import type { Generator } from '../ports';
import { questionWithHistory } from './history';

export interface ThreadView {
  /** The earlier questions as the prompts show them (historyText with formatQuestionTurn); absent for a standalone rewrite. */
  context?: string;
  /**
   * The follow-up as typed, asked (with `context`) in place of the decode's question when that is
   * a search query joined from several questions, which reads as two questions to a small model.
   */
  asked?: string;
  /** The earlier turns' answers, for the guard only. */
  earlier?: readonly string[];
}

export function generatorInThread(gen: Generator, thread: ThreadView): Generator {
  const { context, earlier, asked } = thread;
  if (!context && !earlier?.length) return gen;
  const q = (question: string) => questionWithHistory(context && asked ? asked : question, context ?? '');
  return {
    decideRetrieval: (req) => gen.decideRetrieval({ ...req, question: q(req.question) }),
    generateSegments: (reqs) =>
      gen.generateSegments(
        reqs.map((r) => ({ ...r, question: q(r.question), ...(earlier?.length ? { earlier } : {}) })),
      ),
    // The judge reads the search's own query (standalone, or the searched form of a follow-up).
    ...(gen.judgePassages ? { judgePassages: gen.judgePassages.bind(gen) } : {}),
    cost: gen.cost ? () => gen.cost!() : undefined,
    // The default critique source asks whether the model grades itself natively (core/critique-source.ts).
    native: gen.native === true,
  };
}
