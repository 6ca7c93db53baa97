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

export function questionPrompt(answer: string, n: number): string {
  return [
    n === 1 ? 'Write the question on one line.' : `Write ${n} different such questions, one per line, with nothing else.`,
    `Generate a question for the given answer: answer: ${oneLine(answer)}`,
  ].join('\n');
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
    .map((l) => l.trim().replace(/^(?:[-*•]|\d+[.)]|(?:statement|question|answer|context)\s*\d*\s*:)\s*/i, '').replace(/^["']|["']$/g, '').trim())
    .filter((l) => l.length > 0);
}
