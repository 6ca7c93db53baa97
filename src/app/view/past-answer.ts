// A past answer as the thread and its exports tell it: the text kept with the turn, or, where the
// model wrote nothing that was an answer, that it could not answer from these passages (never
// the text it wrote instead); and the model and engine that wrote it, as recorded when it was
// written (answer-writer.ts), not as the settings say now.
import type { Thread, Turn } from '../../core/conversation/thread';
import { rerank } from '../../core/rerank';
import type { RankSettings } from '../../core/types';
import { WRITER_KEY, writerOfTurn } from './answer-writer';
import { writerLabel } from './written-by';
import { withheldMessage } from './no-answer';

/** Why a turn has no answer because nothing written was one (ranked with `rank`), or null. */
export function turnWithheld(turn: Pick<Turn, 'answer'>, rank: RankSettings): string | null {
  if (!turn.answer || turn.answer.candidates.length === 0) return null;
  try {
    return withheldMessage(rerank(turn.answer, rank));
  } catch {
    return null; // a tree the core cannot rank shows as it was kept
  }
}

/** The line a turn not shown in full gives for its answer. */
export function pastAnswerText(turn: Turn, rank: RankSettings): string {
  if (turn.answerText) return turn.answerText;
  if (turn.status === 'failed' && turn.error) return turn.error;
  return turnWithheld(turn, rank) ?? 'No answer was finished.';
}

/**
 * The thread as the Markdown export writes it: each turn's model line names the model and engine
 * that wrote it ("model not recorded" for a turn kept before they were recorded), and a turn whose
 * model wrote nothing that was an answer says so in place of an answer. A copy: the kept thread
 * is unchanged.
 */
export function threadForExport(thread: Thread, rank: RankSettings): Thread {
  const turns: Record<string, Turn> = {};
  for (const [id, turn] of Object.entries(thread.turns)) {
    const writer = writerOfTurn(turn);
    const withheld = turn.answerText ? null : turnWithheld(turn, rank);
    turns[id] = {
      ...turn,
      model: writer === null ? null : writerLabel(writer),
      ...(withheld ? { answerText: withheld } : {}),
    };
  }
  return { ...thread, turns };
}

/**
 * The thread as the JSON export writes it: whole, so it imports back into the same tree, except
 * that what a model wrote that was not an answer keeps only why it was withheld (never its text),
 * and a turn a model wrote without a record of which says "not recorded" rather than letting the
 * settings' model pass for the writer. Exporting an imported thread again gives the same turns.
 */
export function threadForJson(thread: Thread): Thread {
  const turns: Record<string, Turn> = {};
  for (const [id, turn] of Object.entries(thread.turns)) {
    const writer = writerOfTurn(turn);
    const answer = turn.answer && {
      ...turn.answer,
      candidates: turn.answer.candidates.map((c) => (c.withheld ? { ...c, text: '' } : c)),
    };
    turns[id] = {
      ...turn,
      answer,
      ...(writer === 'not recorded' ? { settings: { ...turn.settings, [WRITER_KEY]: 'not recorded' } } : {}),
    };
  }
  return { ...thread, turns };
}
