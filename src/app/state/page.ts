// The page's state as the controller owns it (wiring/controller.ts runs the effects): the
// settings, the answer shown, evidence-only mode and the figures the page reports, changed only by
// the actions below. Settings change one way, `settingsChanged`, through the sanitiser that also
// reads stored and linked settings; a value it refuses keeps the current one.
import type { DecodeEvent, DecodeResult, AnswerTree, RankSettings } from '../../core/types';
import type { ScoredPassage, RelProbs } from '../../core/ports';
import {
  applyEvent,
  applyRank,
  failRun,
  finishRun,
  initialAnswerState,
  startRun,
  type AnswerState,
  type AnswerWriter,
  type MeaningCoverage,
  type Rerank,
} from './answer';
import {
  decodeChanges,
  defaultSettings,
  sanitizeSettings,
  type AppSettings,
  type DecodeKey,
  type Theme,
  type VisitSettings,
} from '../persist/settings';
import { errorMessage } from '../../core/errors';

export interface AppState {
  /** The settings in effect: the saved ones with this visit's own on top. */
  settings: AppSettings;
  /** The settings as saved (what the next visit starts from). */
  saved: AppSettings;
  visit: VisitSettings;
  answer: AnswerState;
  /** Set when no written answer is possible; the page then shows passages. */
  evidenceOnly: { reason: string } | null;
  /** Calls made to the generator since the page loaded (decideRetrieval + generateSegments). */
  generatorCalls: number;
  /** How long the last weight change took to re-rank the stored tree. */
  lastRerankMs: number | null;
}

export type PageAction =
  | { type: 'settingsChanged'; patch: Partial<AppSettings>; pageUrl?: string }
  | { type: 'settingsReset' }
  | { type: 'hostThemeShown'; theme: Theme }
  | { type: 'evidenceOnlyEntered'; reason: string }
  | { type: 'evidenceOnlyLeft' }
  | { type: 'runStarted'; shown: string; query: string }
  | { type: 'generatorMissing'; runId: number; reason: string }
  | { type: 'generatorCalled' }
  /** The model and engine writing this run's answer, read from the generator the run was given. */
  | { type: 'writerKnown'; runId: number; writer: AnswerWriter }
  | { type: 'decodeEvent'; runId: number; event: DecodeEvent }
  | { type: 'runFinished'; runId: number; result: DecodeResult }
  | { type: 'rankCaughtUp' }
  | { type: 'runStopped'; runId: number }
  | { type: 'runFailed'; runId: number; message: string; partial?: AnswerTree }
  | { type: 'evidenceFound'; runId: number; passages: { passage: ScoredPassage; rel: RelProbs | null }[] }
  /** The run searched while part of the library had no vectors yet: how much search by meaning reached. */
  | { type: 'coverageNoted'; runId: number; coverage: MeaningCoverage }
  | { type: 'answerViewed'; answer: AnswerState };

/** Why the page shows passages when the visitor chose it (a chosen mode lasts like every setting). */
export const CHOSEN_EVIDENCE_ONLY = 'You chose it; it stays on until you leave it.';

export function initialPage(
  saved: AppSettings = defaultSettings(),
  visit: VisitSettings = {},
  evidenceOnly: { reason: string } | null = null,
): AppState {
  return {
    settings: { ...saved, ...visit },
    saved,
    visit,
    answer: initialAnswerState,
    evidenceOnly: evidenceOnly ?? (saved.evidenceOnly ? { reason: CHOSEN_EVIDENCE_ONLY } : null),
    generatorCalls: 0,
    lastRerankMs: null,
  };
}

/** `next`, keeping the objects of `prev` that did not change: whoever follows a part of the settings sees it change only when it does. */
function keepUnchanged(next: AppSettings, prev: AppSettings): AppSettings {
  const out = { ...next } as Record<keyof AppSettings, unknown>;
  for (const key of Object.keys(next) as (keyof AppSettings)[])
    if (JSON.stringify(next[key]) === JSON.stringify(prev[key])) out[key] = prev[key];
  return out as unknown as AppSettings;
}

/** The saved settings replaced; the visit's own stay on top of them, except those the user just set. */
function withSaved(s: AppState, saved: AppSettings, dropVisit: readonly string[] = []): AppState {
  const visit = Object.fromEntries(Object.entries(s.visit).filter(([k]) => !dropVisit.includes(k))) as VisitSettings;
  const merged = { ...saved, ...visit };
  return { ...s, saved, visit, settings: keepUnchanged(merged, s.settings) };
}

/** The answer re-ranked for new weights (a running answer is ranked as it streams). */
function reranked(answer: AnswerState, rank: RankSettings, rerank: Rerank): AnswerState {
  try {
    return answer.status !== 'running' ? applyRank(answer, rank, rerank) : answer;
  } catch (e) {
    return { ...answer, error: errorMessage(e) };
  }
}

function changeSettings(s: AppState, a: Extract<PageAction, { type: 'settingsChanged' }>, deps: PageDeps): AppState {
  const saved = keepUnchanged(sanitizeSettings({ ...s.saved, ...a.patch }, s.saved, a.pageUrl), s.saved);
  const next = withSaved(s, saved, Object.keys(a.patch));
  if (!('rank' in a.patch)) return next;
  const t0 = deps.now();
  const answer = reranked(next.answer, next.settings.rank, deps.rerank);
  return { ...next, answer, lastRerankMs: deps.now() - t0 };
}

function resetSettings(s: AppState, deps: PageDeps): AppState {
  const d = defaultSettings();
  // The index in use is the one the library opened with; resetting it would only ask for a reload.
  // The answer mode is a choice of how to use the page, not tuning: it stays, as the model does.
  const { theme, model, customModel, temperature, indexKind, evidenceOnly } = s.saved;
  const next = withSaved(s, { ...d, theme, model, customModel, temperature, indexKind, evidenceOnly });
  const answer = next.answer.status !== 'running' ? applyRank(next.answer, d.rank, deps.rerank) : next.answer;
  return { ...next, answer };
}

/** A run's answer changes only while it is the current run. */
function forRun(s: AppState, runId: number, change: (a: AnswerState) => AnswerState): AppState {
  return s.answer.runId === runId ? { ...s, answer: change(s.answer) } : s;
}

function startAnswer(s: AppState, shown: string, query: string): AppState {
  const { decode, corrective, crag, temperature, retrieval } = s.settings;
  const started = { ...startRun(s.answer, shown, decode, corrective, crag), query };
  const usedSettings = started.usedSettings && {
    ...started.usedSettings,
    temperature,
    search: retrieval.search,
    rerank: retrieval.rerank,
    reranker: retrieval.reranker ?? 'cross-encoder',
  };
  return { ...s, answer: { ...started, usedSettings, evidenceReason: s.evidenceOnly?.reason ?? null } };
}

/** What a failed run keeps: the candidates the core finished before the bad input, when there are any. */
function failAnswer(
  a: AnswerState,
  message: string,
  partial: AnswerTree | undefined,
  rank: RankSettings,
  rerank: Rerank,
) {
  let kept = a;
  if (partial && partial.candidates.length > 0) {
    try {
      kept = { ...a, tree: partial, ranking: rerank(partial, rank) };
    } catch {
      // keep the streamed state
    }
  }
  return failRun(kept, message);
}

/** A stored answer (a past turn) shown anew, re-ranked with the weights of now. */
function viewAnswer(s: AppState, answer: AnswerState, rerank: Rerank): AppState {
  if (s.answer.status === 'running') return s;
  let shown: AnswerState = { ...answer, runId: s.answer.runId + 1, streaming: [], changed: [] };
  try {
    if (shown.tree && shown.tree.candidates.length > 0)
      shown = { ...shown, ranking: rerank(shown.tree, s.settings.rank) };
  } catch (e) {
    shown = { ...shown, error: errorMessage(e) };
  }
  return { ...s, answer: shown };
}

export interface PageDeps {
  rerank: Rerank;
  /** Times the re-rank the page reports after a weight change; nothing else reads the clock. */
  now: () => number;
}

export function pageReducer(deps: PageDeps) {
  return (s: AppState, a: PageAction): AppState => {
    switch (a.type) {
      case 'settingsChanged':
        return changeSettings(s, a, deps);
      case 'settingsReset':
        return resetSettings(s, deps);
      case 'hostThemeShown':
        return { ...s, visit: { ...s.visit, theme: a.theme }, settings: { ...s.settings, theme: a.theme } };
      // The visitor's choice of mode is a setting, saved like the others (the controller saves what is saved).
      case 'evidenceOnlyEntered':
        return {
          ...changeSettings(s, { type: 'settingsChanged', patch: { evidenceOnly: true } }, deps),
          evidenceOnly: { reason: a.reason },
        };
      case 'evidenceOnlyLeft':
        return {
          ...changeSettings(s, { type: 'settingsChanged', patch: { evidenceOnly: false } }, deps),
          evidenceOnly: null,
        };
      case 'runStarted':
        return startAnswer(s, a.shown, a.query);
      case 'generatorMissing':
        // No generator: this question, and the next ones, are answered with passages; the page says why.
        if (s.answer.runId !== a.runId) return s;
        return { ...s, evidenceOnly: { reason: a.reason }, answer: { ...s.answer, evidenceReason: a.reason } };
      case 'generatorCalled':
        return { ...s, generatorCalls: s.generatorCalls + 1 };
      case 'writerKnown':
        return forRun(s, a.runId, (ans) => ({ ...ans, writer: { ...a.writer } }));
      case 'decodeEvent':
        return forRun(s, a.runId, (ans) => applyEvent(ans, a.event, s.settings.rank, deps.rerank));
      case 'runFinished':
        return forRun(s, a.runId, (ans) => finishRun(ans, a.result));
      case 'rankCaughtUp':
        return { ...s, answer: { ...applyRank(s.answer, s.settings.rank, deps.rerank), changed: [] } };
      case 'runStopped':
        return forRun(s, a.runId, (ans) => ({ ...ans, status: 'stopped', streaming: [] }));
      case 'runFailed':
        return forRun(s, a.runId, (ans) => failAnswer(ans, a.message, a.partial, s.settings.rank, deps.rerank));
      case 'coverageNoted':
        return forRun(s, a.runId, (ans) => ({ ...ans, coverage: { ...a.coverage } }));
      case 'evidenceFound':
        return forRun(s, a.runId, (ans) => ({ ...ans, status: 'done', evidence: { passages: a.passages } }));
      case 'answerViewed':
        return viewAnswer(s, a.answer, deps.rerank);
    }
  };
}

/** Decode settings that differ from the ones the shown answer was built with: the page offers a re-run. */
export function pendingDecodeChanges(s: AppState): DecodeKey[] {
  const used = s.answer.usedSettings;
  if (!used || s.answer.status === 'running' || s.evidenceOnly) return [];
  const { decode, corrective, crag, temperature, retrieval } = s.settings;
  return decodeChanges(used, {
    ...decode,
    corrective,
    crag,
    temperature,
    search: retrieval.search,
    rerank: retrieval.rerank,
    reranker: retrieval.reranker ?? 'cross-encoder',
  });
}
