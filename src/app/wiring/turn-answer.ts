// Between a stored turn and the answer the page shows: a turn keeps its whole answer tree,
// so showing it again re-ranks it with today's weights and its why-panel and beam tree work.
import type { Turn, TurnStatus } from '../../core/conversation/thread';
import type { ScoredPassage } from '../../core/ports';
import { initialAnswerState, type AnswerState } from '../state/answer';
import { WRITER_KEY, sanitizeWriter, writerOfTurn } from '../view/answer-writer';
import { sanitizeCoverage } from '../view/meaning-coverage';

/** The chosen segments and anything still being written, as shown (what a reload must keep). */
export function shownText(a: AnswerState): string {
  const chosen = a.ranking?.best.map((b) => b.candidate.text.trim()).filter(Boolean) ?? [];
  const writing =
    a.status === 'running'
      ? a.streaming
          .map((s) => s.text.trim())
          .filter(Boolean)
          .slice(0, 1)
      : [];
  if (chosen.length === 0 && a.evidence)
    return a.evidence.passages
      .slice(0, 3)
      .map((p) => p.passage.text.slice(0, 200))
      .join(' … ');
  return [...chosen, ...writing].join(' ');
}

/** A turn's status from the answer: anything not finished is kept as stopped (a reload mid-answer shows it so). */
export function turnStatus(a: AnswerState): TurnStatus {
  if (a.status === 'done') return 'done';
  if (a.status === 'error') return 'failed';
  return 'stopped';
}

export function turnPatch(
  a: AnswerState,
): Pick<Turn, 'answer' | 'answerText' | 'status' | 'passages' | 'error' | 'meaningCoverage'> {
  const passages: ScoredPassage[] | undefined = a.evidence?.passages.map((p) => p.passage);
  return {
    answer: a.evidence ? null : a.tree,
    answerText: shownText(a),
    status: turnStatus(a),
    ...(passages ? { passages } : {}),
    ...(a.error ? { error: a.error } : {}),
    ...(a.coverage ? { meaningCoverage: { ...a.coverage } } : {}),
  };
}

/**
 * The record of who writes a turn's answer, once the answer knows it and the turn does not yet
 * keep it: beside the settings it is written with, and as the turn's model (the loaded model's
 * own id, not the settings' choice). Null when there is nothing new to keep.
 */
export function writerPatch(turn: Turn, a: AnswerState): Pick<Turn, 'settings' | 'model'> | null {
  const writer = a.writer === 'not recorded' ? null : a.writer;
  if (!writer) return null;
  const kept = sanitizeWriter(turn.settings[WRITER_KEY]);
  if (kept && kept.model === writer.model && kept.engine === writer.engine) return null;
  return { settings: { ...turn.settings, [WRITER_KEY]: { ...writer } }, model: writer.model };
}

/** The answer state that shows a stored turn (ranking is recomputed by the controller). */
export function answerOfTurn(t: Turn): AnswerState {
  const used = (t.settings.used ?? null) as AnswerState['usedSettings'];
  const coverage = sanitizeCoverage(t.meaningCoverage);
  return {
    ...initialAnswerState,
    status: t.status === 'failed' ? 'error' : t.status,
    question: t.question,
    ...(t.searchQuery && t.searchQuery !== t.question ? { query: t.searchQuery } : {}),
    usedSettings: used,
    tree: t.answer,
    evidence: t.passages ? { passages: t.passages.map((passage) => ({ passage, rel: null })) } : null,
    writer: writerOfTurn(t),
    error: t.error ?? null,
    ...(coverage ? { coverage } : {}),
  };
}
