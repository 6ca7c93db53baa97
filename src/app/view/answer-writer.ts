// Which model and engine wrote an answer, as recorded at the moment it was written (the loaded
// model, not the model the settings name now: an answer written by a GGUF model on llama.cpp must
// not be credited to the web-llm model picked in the settings). A turn keeps the record in its
// settings (`writtenBy`, beside the decode settings it was written with); turns kept before the
// record existed, and records in an imported file that are not one, read as "model not recorded".
import type { Turn } from '../../core/conversation/thread';
import type { AnswerWriter, WriterRecord } from '../state/answer';

/** Where a turn's settings keep the record. */
export const WRITER_KEY = 'writtenBy';

const clean = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() ? v.trim().replace(/\s+/g, ' ').slice(0, 200) : null;

/** A stored or imported record, or null when it is not one (untrusted: a file may hold anything). */
export function sanitizeWriter(raw: unknown): AnswerWriter | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const model = clean(r.model);
  const engine = clean(r.engine);
  return model && engine ? { model, engine } : null;
}

/** Who wrote a turn's answer: its record, "not recorded" where a model wrote it without one, null where no model wrote (passages only). */
export function writerOfTurn(turn: Pick<Turn, 'settings' | 'answer'>): WriterRecord | null {
  const recorded = sanitizeWriter(turn.settings?.[WRITER_KEY]);
  if (recorded) return recorded;
  return turn.answer && turn.answer.candidates.length > 0 ? 'not recorded' : null;
}
