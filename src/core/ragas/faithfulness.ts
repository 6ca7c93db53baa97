import type { Critic, Passage, Writer } from '../ports';
import { replyLines, statementsPrompt, verificationPrompt } from './prompts';
import type { Faithfulness, ModelNames, StatementVerdict } from './types';

export interface FaithfulnessPorts {
  writer: Writer;
  /** When given, statements are checked by NLI; otherwise by the writer with the paper's prompt. */
  critic?: Critic;
  models: ModelNames;
}

/** RAGAS F = |V| / |S|: statements S extracted from the answer, V those the context supports. */
export async function faithfulness(
  question: string,
  answer: string,
  contexts: readonly Passage[],
  ports: FaithfulnessPorts,
  signal?: AbortSignal,
): Promise<Faithfulness> {
  const writerName = `writer: ${ports.models.writer}`;
  if (!answer.trim()) return empty([writerName], 'the answer is empty');
  const statements = replyLines(
    await ports.writer.write(statementsPrompt(question, answer), { maxTokens: 256, signal }),
  );
  signal?.throwIfAborted();
  if (!statements.length) return empty([writerName], 'no statements could be extracted from the answer');
  if (!contexts.length) {
    // Nothing was retrieved, so nothing the answer says is grounded in a context.
    const verdicts = statements.map((statement) => ({ statement, supported: false }));
    return result(verdicts, [writerName], 'no context was retrieved');
  }
  if (ports.critic) {
    const verdicts = await byNli(statements, contexts, ports.critic, signal);
    return result(verdicts, [writerName, `nli: ${ports.models.nli ?? 'evaluator NLI'}`]);
  }
  const { verdicts, missing } = await byWriter(statements, contexts, ports.writer, signal);
  return result(
    verdicts,
    [writerName],
    missing ? `${missing} verdict(s) missing from the writer's reply, counted as unsupported` : undefined,
  );
}

/** A statement is supported when, for some context passage, entailment is the NLI model's most likely label. */
async function byNli(
  statements: string[],
  contexts: readonly Passage[],
  critic: Critic,
  signal?: AbortSignal,
): Promise<StatementVerdict[]> {
  const pairs = statements.flatMap((text) => contexts.map((passage) => ({ passage, text })));
  const probs = await critic.support(pairs, signal);
  return statements.map((statement, si) => {
    let best = 0;
    let supported = false;
    contexts.forEach((_, ci) => {
      const p = probs[si * contexts.length + ci];
      if (!p) return;
      const total = p.full + p.partial + p.none;
      const entail = total > 0 ? p.full / total : 0;
      best = Math.max(best, entail);
      if (p.full > p.partial && p.full > p.none) supported = true;
    });
    return { statement, supported, probability: best };
  });
}

async function byWriter(statements: string[], contexts: readonly Passage[], writer: Writer, signal?: AbortSignal) {
  const context = contexts.map((c) => c.text).join('\n');
  const reply = await writer.write(verificationPrompt(context, statements), {
    maxTokens: 64 + 48 * statements.length,
    signal,
  });
  const verdicts = parseVerdicts(reply, statements.length);
  return {
    verdicts: statements.map((statement, i) => ({ statement, supported: verdicts[i] === true })),
    missing: verdicts.filter((v) => v === undefined).length,
  };
}

/** Reads `statement N: Yes|No` lines; the last verdict given for a statement wins (explanations come first). */
export function parseVerdicts(reply: string, n: number): (boolean | undefined)[] {
  const out: (boolean | undefined)[] = Array.from({ length: n }, () => undefined);
  for (const m of reply.matchAll(/statement\s*(\d+)\s*[:\-–]\s*\**\s*(yes|no)\b/gi)) {
    const i = Number(m[1]) - 1;
    if (i >= 0 && i < n) out[i] = (m[2] ?? '').toLowerCase() === 'yes';
  }
  return out;
}

function result(statements: StatementVerdict[], models: string[], note?: string): Faithfulness {
  const supported = statements.filter((s) => s.supported).length;
  return {
    score: supported / statements.length,
    models,
    statements,
    unsupported: statements.filter((s) => !s.supported).map((s) => s.statement),
    ...(note ? { note } : {}),
  };
}

function empty(models: string[], note: string): Faithfulness {
  return { score: null, models, statements: [], unsupported: [], note };
}
