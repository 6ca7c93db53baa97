// When the answer-quality check (RAGAS) runs. It makes five or more model calls after the answer
// (statements, questions, embeddings, support, relevance). On WebGPU they take a moment and run
// right after each answer; on the CPU (llama.cpp) they take longer than the answer itself (2.6×
// with Qwen2.5-Coder-0.5B: docs/benchmarks.md, bench/ragas-wait.bench.ts), and the engine writes one thing at a time, so
// there the check runs only when the reader asks for it. Either way a new question cancels a check
// still under way: the next answer never waits behind it.
import type { WriterRecord } from '../state/answer';

export type RagasWhen = 'after-each-answer' | 'on-request';

/**
 * When an answer's check runs, from the engine that wrote it. An answer kept without a record of
 * its engine is checked on request (it may have been written on the CPU); an answer whose writer
 * the page was not told (a page without a loaded model's record) keeps the check after the answer.
 */
export function ragasWhen(writer: WriterRecord | null): RagasWhen {
  if (writer === null) return 'after-each-answer';
  if (writer === 'not recorded') return 'on-request';
  return writer.engine === 'llama.cpp' ? 'on-request' : 'after-each-answer';
}

/** The Tuning panel's line: what happens with the engine that writes now ('wllama' on the CPU, 'webllm' on WebGPU). */
export function ragasWhenSentence(engine: 'webllm' | 'wllama' | undefined): string {
  const cpu = 'On the CPU (llama.cpp) it runs only when you ask, with the button under the answer.';
  const gpu = 'On WebGPU (web-llm) it runs after each answer.';
  const lead = 'The answer-quality check (RAGAS) makes five or more model calls after an answer.';
  const tail = 'A new question cancels a check under way, so it never holds up the next answer.';
  if (engine === 'wllama')
    return `${lead} Answers are written on the CPU here, so it runs only when you ask (the button under the answer); on WebGPU it runs after each answer. ${tail}`;
  if (engine === 'webllm')
    return `${lead} Answers are written on WebGPU here, so it runs after each answer; on the CPU (llama.cpp) only when you ask. ${tail}`;
  return `${lead} ${gpu} ${cpu} ${tail}`;
}
