import type { Writer } from '../ports';

/** CRAG Appendix A, Table 5: the few-shot prompt that turns a question into search keywords. */
export function rewritePrompt(question: string): string {
  return [
    'Extract at most three keywords separated by comma from the following dialogues and questions as queries for the web search, including topic background within dialogues and main intent within questions.',
    '',
    "question: What is Henry Feilden's occupation? query: Henry Feilden, occupation",
    '',
    'question: In what city was Billy Carlson born? query: city, Billy Carlson, born',
    '',
    'question: What is the religion of John Gwynn? query: religion of John Gwynn',
    '',
    "question: What sport does Kiribati men's national basketball team play? query: sport, Kiribati men's national basketball team play",
    '',
    `question: ${question.replace(/\s+/g, ' ').trim()} query:`,
  ].join('\n');
}

/**
 * The writer's reply is untrusted: keep its first non-empty line, drop an echoed `query:`
 * label and quotes, and fall back to the question itself when nothing usable remains.
 */
export function parseRewrite(reply: string, question: string): string {
  const line =
    reply
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? '';
  const cleaned = line
    .replace(/^.*?\bquery:\s*/i, '')
    .replace(/^["'`]+|["'`]+$/g, '')
    .trim()
    .slice(0, 200);
  return cleaned || question.trim();
}

export async function rewriteQuery(writer: Writer, question: string, signal?: AbortSignal): Promise<string> {
  const reply = await writer.write(rewritePrompt(question), { maxTokens: 32, signal });
  return parseRewrite(reply, question);
}
