// The RAGAS paper's prompts (Es et al., 2023, §3), quoted verbatim. The paper adds a
// demonstration to each prompt (its footnote 3); ours is a line saying the output format we
// parse, which small local models need. The data comes last, as in the paper's listings.

export function statementsPrompt(question: string, answer: string): string {
  return [
    'Given a question and answer, create one or more statements from each sentence in the given answer.',
    'Write each statement on its own line, with nothing else.',
    `question: ${oneLine(question)}`,
    `answer: ${oneLine(answer)}`,
  ].join('\n');
}

export function verificationPrompt(context: string, statements: readonly string[]): string {
  return [
    `context: ${context}`,
    '',
    'Consider the given context and following statements, then determine whether they are supported by the information present in the context. Provide a brief explanation for each statement before arriving at the verdict (Yes/No). Provide a final verdict for each statement in order at the end in the given format. Do not deviate from the specified format. ' +
      statements.map((s) => `statement: ${s}`).join(' '),
    '',
    'Format of the final verdicts, one line per statement, in order:',
    ...statements.map((_, i) => `statement ${i + 1}: Yes|No`),
  ].join('\n');
}

/**
 * The RAGAS library's answer-relevance instruction (ragas ResponseRelevancePrompt): the same
 * generation writes the question and judges whether the answer is noncommittal. The paper's
 * prompt is its first clause; the noncommittal judgement is the library's addition.
 */
export const NONCOMMITTAL_INSTRUCTION =
  'Generate a question for the given answer and Identify if answer is noncommittal. Give noncommittal as 1 if the answer is noncommittal and 0 if the answer is committal. A noncommittal answer is one that is evasive, vague, or ambiguous. For example, "I don\'t know" or "I\'m not sure" are noncommittal answers';

export function questionPrompt(answer: string, n: number): string {
  return [
    NONCOMMITTAL_INSTRUCTION,
    n === 1
      ? 'Write the question on one line, then a last line "noncommittal: 0" or "noncommittal: 1", with nothing else.'
      : `Write ${n} different such questions, one per line, then a last line "noncommittal: 0" or "noncommittal: 1", with nothing else.`,
    `answer: ${oneLine(answer)}`,
  ].join('\n');
}

/** The writer's noncommittal verdict: the last `noncommittal: 0|1` line wins; undefined when none. */
export function noncommittalVerdict(reply: string): boolean | undefined {
  let verdict: boolean | undefined;
  for (const m of reply.matchAll(/noncommittal\W*\s*[:=]\s*\W*([01])\b/gi)) verdict = m[1] === '1';
  return verdict;
}

export const INSUFFICIENT = 'Insufficient Information';

export function extractionPrompt(question: string, context: string): string {
  return [
    `Please extract relevant sentences from the provided context that can potentially help answer the following question. If no relevant sentences are found, or if you believe the question cannot be answered from the given context, return the phrase "${INSUFFICIENT}". While extracting candidate sentences you're not allowed to make any changes to sentences from given context.`,
    'Write each extracted sentence on its own line.',
    `question: ${oneLine(question)}`,
    `context: ${context}`,
  ].join('\n');
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Lines of a list reply, without bullets, numbering, an echoed label or surrounding quotes. */
export function replyLines(reply: string): string[] {
  return reply
    .split('\n')
    .map((l) =>
      l
        .trim()
        .replace(/^(?:[-*•]|\d+[.)]|(?:statement|question|answer|context)\s*\d*\s*:)\s*/i, '')
        .replace(/^["']|["']$/g, '')
        .trim(),
    )
    .filter((l) => l.length > 0);
}
