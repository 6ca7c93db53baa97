// The library connection's state (wiring/library-connection.ts runs the effects): what the
// library panel shows (`view`: documents, progress bars, messages, batch reports) and what the
// status panel's library line says, changed only by the actions below. The line is one selector,
// `libraryLine`.
import type { Progress, WorkerStatus } from './worker-status';
import type { BatchReportView } from '../persist/batch-reports';

export interface LibraryDocView {
  id: string;
  title: string;
  /** The file it came from. */
  name?: string;
  passages: number;
  bytes?: number;
  /** Kept without vectors (the embedding model did not run): found by words until embedded. */
  pending?: boolean;
  /** Bytes of the original file kept for the source viewer (absent when none is kept). */
  originalBytes?: number;
  /** One of the site's sample documents, not the visitor's own. */
  sample?: boolean;
}

export interface LibraryJobView extends Progress {
  id: string;
  error?: string;
}

export interface LibraryViewState {
  ready: boolean;
  docs: LibraryDocView[];
  jobs: LibraryJobView[];
  /** A batch is running and can be stopped. */
  busy?: boolean;
  reports?: BatchReportView[];
  /** Last problem (a refused file, a failed ingestion), shown until the next action. */
  messages: { id: number; kind: 'error' | 'info'; text: string }[];
}

export const emptyLibraryView: LibraryViewState = { ready: false, docs: [], jobs: [], messages: [] };

export interface LibraryState {
  view: LibraryViewState;
  /** The library's own state: opening on first use, then open or failed. */
  phase: 'idle' | 'loading' | 'ready' | 'error';
  openError?: string;
  /** Which vector index serves and why, and where the words are; '' until the library opened. */
  index: string;
  /** What the site's sharded corpus adds to the line, once it is searched. */
  corpus: string;
  /** When each file of a batch without a byte total started (its bar's clock), by job id. */
  fileStarted: Record<string, number>;
  /** The batch's newest progress bar, shown at the next repaint. */
  nextJob: LibraryJobView | null;
  /** When the scan being recognised started (its own clock: the slow part of such a file). */
  recognisingSince: number;
  lastMessageId: number;
  lastReportId: number;
}

export type LibraryAction =
  | { type: 'opening' }
  | { type: 'opened'; index: string; warnings: string[] }
  | { type: 'openFailed'; message: string }
  | { type: 'indexDescribed'; index: string }
  | { type: 'corpusFound'; documents: number; passages: number }
  | { type: 'said'; kind: 'error' | 'info'; text: string }
  | { type: 'messageDismissed'; id: number }
  | { type: 'listed'; docs: LibraryDocView[] }
  /** A batch's progress (view/library-progress.ts makes its bar), and the document it just added, if any. */
  | {
      type: 'batchProgressed';
      job: LibraryJobView;
      recognisingSince: number;
      added?: LibraryDocView;
      /** A document listed by its words, taken out again (its vectors could not be written). */
      withdrawn?: string;
    }
  | { type: 'batchRepainted' }
  /** A file's own bar: started at `startedAt`. */
  | { type: 'fileProgressed'; job: LibraryJobView }
  /** A file done (added, or refused with why). */
  | { type: 'fileDone'; id: string; refused?: string }
  | { type: 'jobsCleared' }
  | { type: 'busy'; busy: boolean }
  | { type: 'reported'; report: BatchReportView }
  | { type: 'reportDismissed'; id: number };

export function initialLibrary(reports: BatchReportView[] = []): LibraryState {
  return {
    view: { ...emptyLibraryView, ...(reports.length ? { reports } : {}) },
    phase: 'idle',
    index: '',
    corpus: '',
    fileStarted: {},
    nextJob: null,
    recognisingSince: 0,
    lastMessageId: 0,
    lastReportId: Math.max(0, ...reports.map((r) => r.id)),
  };
}

/** What the status adds once the site's sharded corpus is searched: it answers too, so its size is said. */
export function siteCorpusNote(about: { documents: number; passages: number }): string {
  const n = (x: number, one: string) => `${x.toLocaleString('en')} ${one}${x === 1 ? '' : 's'}`;
  return `. Also searched: this site's corpus, ${n(about.documents, 'document')} (${n(about.passages, 'passage')}), read in blocks as questions need them`;
}

function say(s: LibraryState, kind: 'error' | 'info', text: string): LibraryState {
  const id = s.lastMessageId + 1;
  return { ...s, lastMessageId: id, view: { ...s.view, messages: [...s.view.messages.slice(-3), { id, kind, text }] } };
}

const withView = (s: LibraryState, patch: Partial<LibraryViewState>): LibraryState => ({
  ...s,
  view: { ...s.view, ...patch },
});

/** A finished or refused file's bar goes; a refusal is said. */
function fileDone(s: LibraryState, a: Extract<LibraryAction, { type: 'fileDone' }>): LibraryState {
  const { [a.id]: _, ...fileStarted } = s.fileStarted;
  const next = withView({ ...s, fileStarted }, { jobs: s.view.jobs.filter((j) => j.id !== a.id) });
  return a.refused ? say(next, 'error', a.refused) : next;
}

export function libraryReducer(s: LibraryState, a: LibraryAction): LibraryState {
  switch (a.type) {
    case 'opening':
      return { ...s, phase: 'loading' };
    case 'opened': {
      // Opening may have started the starter library; whatever it left unfinished is over now.
      const open = withView({ ...s, phase: 'ready', index: a.index, fileStarted: {} }, { jobs: [] });
      return a.warnings.reduce((next, w) => say(next, 'error', w), open);
    }
    case 'openFailed': {
      const message = `The library could not open: ${a.message}`;
      return say(withView({ ...s, phase: 'error', openError: message }, { ready: true }), 'error', message);
    }
    case 'indexDescribed':
      return { ...s, index: a.index };
    case 'corpusFound':
      return { ...s, corpus: siteCorpusNote(a) };
    case 'said':
      return say(s, a.kind, a.text);
    case 'messageDismissed':
      return withView(s, { messages: s.view.messages.filter((m) => m.id !== a.id) });
    case 'listed':
      return withView(s, { ready: true, docs: a.docs });
    case 'batchProgressed': {
      const next = { ...s, nextJob: a.job, recognisingSince: a.recognisingSince };
      // The list follows the batch from the progress events: re-reading the library (every
      // document's text) per file would cost the page's main thread more than the files do. The
      // same text added again replaces its document (content-addressed), so it is listed once.
      const row = a.added;
      if (a.withdrawn) return withView(next, { docs: s.view.docs.filter((x) => x.id !== a.withdrawn) });
      return row ? withView(next, { docs: [...s.view.docs.filter((x) => x.id !== row.id), row] }) : next;
    }
    case 'batchRepainted':
      return s.nextJob ? withView({ ...s, nextJob: null }, { jobs: [s.nextJob] }) : s;
    case 'fileProgressed': {
      const { job } = a;
      const next = { ...s, fileStarted: { ...s.fileStarted, [job.id]: job.startedAt } };
      return withView(next, { jobs: [...s.view.jobs.filter((j) => j.id !== job.id), job] });
    }
    case 'fileDone':
      return fileDone(s, a);
    case 'jobsCleared':
      return withView(s, { jobs: [] });
    case 'busy':
      return withView(s, { busy: a.busy });
    case 'reported':
      return withView({ ...s, lastReportId: a.report.id }, { reports: [...(s.view.reports ?? []), a.report] });
    case 'reportDismissed':
      return withView(s, { reports: (s.view.reports ?? []).filter((r) => r.id !== a.id) });
  }
}

/** The status panel's library line: which index serves and why, what waits for the embedding model, the site's corpus. */
export function libraryLine(s: LibraryState): WorkerStatus {
  const pending = s.view.docs.filter((d) => d.pending).length;
  // While a batch runs, its documents' words go in first and their vectors follow.
  const until = s.view.busy ? 'they are embedded' : 'the embedding model loads';
  const waiting = pending
    ? `. ${pending} document${pending === 1 ? ' is' : 's are'} not embedded yet: found by their words only until ${until}`
    : '';
  return {
    state: s.phase,
    models: [],
    ...(s.phase === 'ready' ? { device: 'cpu' } : {}),
    ...(s.index ? { reason: s.index + waiting + s.corpus } : {}),
    ...(s.openError ? { error: s.openError } : {}),
  };
}
