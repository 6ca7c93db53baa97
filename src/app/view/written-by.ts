// Who wrote an answer, in words for the page and the exports (answer-writer.ts keeps the record;
// these words load with the answer view and the exporters, not with the first screen).
import type { WriterRecord } from '../state/answer';

/** Short, for an export's model line: "SmolLM2-135M-Instruct.Q4_1.gguf (llama.cpp)", or "not recorded". */
export function writerLabel(w: WriterRecord): string {
  return w === 'not recorded' ? 'not recorded' : `${w.model} (${w.engine})`;
}

/** The sentence under an answer. */
export function writtenBySentence(w: WriterRecord): string {
  return w === 'not recorded'
    ? 'Written by a model not recorded (this answer was kept before the page recorded which model wrote it).'
    : `Written by ${w.model} on ${w.engine}.`;
}
