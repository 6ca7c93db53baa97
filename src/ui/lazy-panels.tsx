// Panels the first screen does not need load on first use, which keeps the entry chunk a first
// visit downloads under its budget (test/browser/entry-size.test.ts): the answer (with its
// segments, why-panels and beam tree) and the evidence list appear only after a question, the
// passage dialog only after a citation is opened, a batch report only after files were added, a
// thread's turns only once it has some; the thread list (with export and import) and the tuning
// panel are folded on a phone, and the models panel (engine and model pickers, worker status) and the
// offline panel sit below the question (on a wide screen these load just after the first paint); the
// storage notice shows nothing in a visit with storage of its own.
// Each stand-in takes the props of the panel it loads, so App.tsx only changes an import line;
// the panel, once loaded, renders its own landmarks and labels exactly as before.
import { type ComponentType, lazy, Suspense, useRef } from 'react';

/**
 * A stand-in for a panel whose code loads on first use: the same props, and meanwhile a short,
 * announced "Loading {what}…" line (nothing when `what` is null).
 */
export function lazyPanel<P extends object>(load: () => Promise<ComponentType<P>>, what: string | null) {
  const Panel = lazy(() => load().then((component) => ({ default: component })));
  const fallback =
    what === null ? null : (
      <p className="muted" role="status">
        Loading {what}…
      </p>
    );
  return (props: P) => (
    <Suspense fallback={fallback}>
      <Panel {...props} />
    </Suspense>
  );
}

export const AnswerView = lazyPanel(() => import('./AnswerView').then((m) => m.AnswerView), 'the answer');
export const EvidenceView = lazyPanel(() => import('./EvidenceView').then((m) => m.EvidenceView), 'the evidence');
export const TuningPanel = lazyPanel(
  () => import('./tuning/TuningPanel').then((m) => m.TuningPanel),
  'the tuning settings',
);
export const BatchReport = lazyPanel(() => import('./BatchReport').then((m) => m.BatchReport), 'the report');
export const EnginePicker = lazyPanel(
  () => import('./models/EnginePicker').then((m) => m.EnginePicker),
  'the engine choice',
);
export const ModelPicker = lazyPanel(
  () => import('./models/ModelPicker').then((m) => m.ModelPicker),
  'the model choice',
);
export const OfflinePanel = lazyPanel(
  () => import('./OfflineStatus').then((m) => m.OfflinePanel),
  'the offline status',
);
export const ThreadList = lazyPanel(() => import('./thread/ThreadList').then((m) => m.ThreadList), 'the threads');
export const ModelsPanel = lazyPanel(() => import('./models/ModelsPanel').then((m) => m.ModelsPanel), 'the models');
export const Notices = lazyPanel(() => import('./Notices').then((m) => m.Notices), null);
export const LibraryDocs = lazyPanel(() => import('./library/DocList').then((m) => m.LibraryDocs), null);
export const LibraryActivity = lazyPanel(
  () => import('./library/LibraryActivity').then((m) => m.LibraryActivity),
  null,
);
export const PasteText = lazyPanel(() => import('./library/PasteText').then((m) => m.PasteText), null);
/** Says nothing while it loads: in a visit with storage of its own the notice shows nothing at all. */
export const StorageNotice = lazyPanel(() => import('./StorageNotice').then((m) => m.StorageNotice), null);

const LazyPassageDialog = lazyPanel(() => import('./PassageDialog').then((m) => m.PassageDialog), 'the passage');
const LazyThreadView = lazyPanel(() => import('./thread/ThreadView').then((m) => m.ThreadView), 'the conversation');

/** Mounted from the first opened passage on, so later closes and opens go through the dialog itself. */
export function PassageDialog(props: Parameters<typeof LazyPassageDialog>[0]) {
  const used = useRef(false);
  if (props.candidate) used.current = true;
  if (!used.current) return null;
  return <LazyPassageDialog {...props} />;
}

/** A thread with no turns yet shows only the answer (as ThreadView does), without loading the turns' view. */
export function ThreadView(props: Parameters<typeof LazyThreadView>[0]) {
  if (!props.state.thread || props.state.thread.roots.length === 0) return <>{props.viewedAnswer}</>;
  return <LazyThreadView {...props} />;
}
