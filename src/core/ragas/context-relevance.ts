import type { Passage, Writer } from '../ports';
import { normaliseSentence, splitSentences } from '../crag/sentences';
import { extractionPrompt, INSUFFICIENT } from './prompts';
import type { ContextRelevance, ModelNames } from './types';

/**
 * RAGAS Eq. 2: CR = extracted sentences / sentences in c(q). The writer may not change the
 * sentences it extracts, so a reply sentence counts only if it is one of the context's own
 * (compared without regard to case and spacing), and each context sentence counts once.
 * That keeps the score in [0, 1] whatever the model writes.
 */
export async function contextRelevance(
  question: string,
  contexts: readonly Passage[],
  ports: { writer: Writer; models: ModelNames },
  signal?: AbortSignal,
): Promise<ContextRelevance> {
  const models = [`writer: ${ports.models.writer}`];
  const sentences = contexts.flatMap((c) => splitSentences(c.text));
  if (!sentences.length)
    return { score: null, models, extracted: [], totalSentences: 0, note: 'no context was retrieved' };
  const reply = await ports.writer.write(extractionPrompt(question, contexts.map((c) => c.text).join('\n')), {
    maxTokens: 512,
    signal,
  });
  signal?.throwIfAborted();
  const byNorm = new Map(sentences.map((s) => [normaliseSentence(s), s]));
  const extracted: string[] = [];
  let invented = 0;
  if (!reply.includes(INSUFFICIENT)) {
    const seen = new Set<string>();
    for (const line of reply.split('\n')) {
      for (const s of splitSentences(line.replace(/^\s*(?:(?:[-*•]|\d+[.)])\s+|context\s*:\s*)/i, ''))) {
        const key = normaliseSentence(s);
        const original = byNorm.get(key);
        if (original === undefined) invented++;
        else if (!seen.has(key)) {
          seen.add(key);
          extracted.push(original);
        }
      }
    }
  }
  return {
    score: extracted.length / sentences.length,
    models,
    extracted,
    totalSentences: sentences.length,
    ...(invented ? { note: `${invented} sentence(s) in the reply are not in the context and were not counted` } : {}),
  };
}
