// The generator as a follow-up's decode sees it: every request's question carries the earlier
// questions (never the earlier answers: a small model pastes what it is shown, issue 46), and each
// segment request carries the earlier answers for the non-answer guard, which withholds a candidate
// that repeats one. The page's controller and the answer benches both ask through this.
import type { Generator } from '../ports';
import { questionWithHistory } from './history';

export interface ThreadView {
  /** The earlier questions as the prompts show them (historyText with formatQuestionTurn). */
  context?: string;
  /** The earlier turns' answers, for the guard only. */
  earlier?: readonly string[];
}

export function generatorInThread(gen: Generator, thread: ThreadView): Generator {
  const { context, earlier } = thread;
  if (!context && !earlier?.length) return gen;
  const q = (question: string) => questionWithHistory(question, context ?? '');
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
