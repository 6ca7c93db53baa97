// Plain RAG: the top passages in one prompt, one pass, no critique. It is the yardstick
// the Self-RAG answer's cost is held against (issue 28: at most twice its time, first
// words no later than 1.5× its own), so it is built from the same ports the decode
// loop uses: the same retriever and the generator's Writer side.
import { CoreInputError } from './errors';
import type { Retriever, ScoredPassage, Writer } from './ports';

export interface PlainRagSettings {
  /** Passages put in the prompt (0: answer from the model's own knowledge, no retrieval). */
  passages: number;
  /** Token budget of the whole answer. */
  maxTokens: number;
}

export const DEFAULT_PLAIN_RAG_SETTINGS: Readonly<PlainRagSettings> = Object.freeze({ passages: 3, maxTokens: 192 });

export interface PlainRagAnswer {
  text: string;
  /** The passages the prompt held, numbered from 1 in the prompt. */
  passages: ScoredPassage[];
}

/** The one prompt: numbered passages (untrusted text, only ever shown to the model), then the question. */
export function plainRagInstruction(question: string, passages: readonly ScoredPassage[]): string {
  if (passages.length === 0) return `Answer the question in two or three sentences.\n\nQuestion: ${question}`;
  const numbered = passages.map((p, i) => `[${i + 1}] ${p.title}\n${p.text}`).join('\n\n');
  return `Answer the question in two or three sentences, using only the passages below.\n\n${numbered}\n\nQuestion: ${question}`;
}

export async function plainRagAnswer(
  question: string,
  ports: { retriever: Retriever; writer: Writer },
  settings: PlainRagSettings = DEFAULT_PLAIN_RAG_SETTINGS,
  opts: { signal?: AbortSignal; onText?: (textSoFar: string) => void } = {},
): Promise<PlainRagAnswer> {
  if (typeof question !== 'string' || question.trim() === '')
    throw new CoreInputError('The question is empty: type a question to answer.');
  if (!Number.isInteger(settings.passages) || settings.passages < 0)
    throw new CoreInputError(`Passages must be a whole number of 0 or more, got ${settings.passages}.`);
  if (!Number.isInteger(settings.maxTokens) || settings.maxTokens < 1)
    throw new CoreInputError(`The token budget must be a whole number of at least 1, got ${settings.maxTokens}.`);
  const found = settings.passages > 0 ? await ports.retriever.retrieve(question, settings.passages, opts.signal) : [];
  if (!Array.isArray(found)) throw new CoreInputError('The retriever did not return a list of passages.');
  const passages = found.slice(0, settings.passages);
  const text = await ports.writer.write(plainRagInstruction(question, passages), {
    maxTokens: settings.maxTokens,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onText ? { onText: opts.onText } : {}),
  });
  return { text, passages };
}
