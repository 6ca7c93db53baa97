// Panels the first screen does not need load on first use, which keeps the entry chunk a first
// visit downloads under its budget (test/unit/build/entry-size.test.ts): the answer (with its
// segments, why-panels and beam tree) and the evidence list appear only after a question, the
// passage dialog only after a citation is opened, a batch report only after files were added, a
// thread's turns only once it has some; the thread list (with export and import) and the tuning
// panel are folded on a phone, and the models panel (engine and model pickers, worker status) and the
// offline panel sit below the question (on a wide screen these load just after the first paint); the
// storage notice shows nothing in a visit with storage of its own.
// Each stand-in takes the props of the panel it loads, so App.tsx only changes an import line;
// the panel, once loaded, renders its own landmarks and labels exactly as before.
import { lazy, Suspense, useRef, type ComponentProps, type ReactNode } from 'react';
import type { AnswerView as AnswerViewPanel } from './AnswerView';
import type { BatchReport as BatchReportPanel } from './BatchReport';
import type { EnginePicker as EnginePickerPanel } from './EnginePicker';
import type { EvidenceView as EvidenceViewPanel } from './EvidenceView';
import type { ModelPicker as ModelPickerPanel } from './ModelPicker';
import type { OfflinePanel as OfflinePanelView } from './OfflineStatus';
import type { PassageDialog as PassageDialogPanel } from './PassageDialog';
import type { StatusPanel as StatusPanelView } from './StatusPanel';
import type { StorageNotice as StorageNoticeView } from './StorageNotice';
import type { ThreadList as ThreadListPanel } from './ThreadList';
import type { ThreadView as ThreadViewPanel } from './ThreadView';
import type { TuningPanel as TuningPanelView } from './TuningPanel';

const LazyAnswerView = lazy(() => import('./AnswerView').then((m) => ({ default: m.AnswerView })));
const LazyBatchReport = lazy(() => import('./BatchReport').then((m) => ({ default: m.BatchReport })));
const LazyEnginePicker = lazy(() => import('./EnginePicker').then((m) => ({ default: m.EnginePicker })));
const LazyModelPicker = lazy(() => import('./ModelPicker').then((m) => ({ default: m.ModelPicker })));
const LazyThreadList = lazy(() => import('./ThreadList').then((m) => ({ default: m.ThreadList })));
const LazyThreadView = lazy(() => import('./ThreadView').then((m) => ({ default: m.ThreadView })));
const LazyEvidenceView = lazy(() => import('./EvidenceView').then((m) => ({ default: m.EvidenceView })));
const LazyOfflinePanel = lazy(() => import('./OfflineStatus').then((m) => ({ default: m.OfflinePanel })));
const LazyPassageDialog = lazy(() => import('./PassageDialog').then((m) => ({ default: m.PassageDialog })));
const LazyStatusPanel = lazy(() => import('./StatusPanel').then((m) => ({ default: m.StatusPanel })));
const LazyStorageNotice = lazy(() => import('./StorageNotice').then((m) => ({ default: m.StorageNotice })));
const LazyTuningPanel = lazy(() => import('./TuningPanel').then((m) => ({ default: m.TuningPanel })));

/** What shows while a panel's code loads: a short, announced line. */
function Loading({ what, children }: { what: string; children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p className="muted" role="status">
          Loading {what}…
        </p>
      }
    >
      {children}
    </Suspense>
  );
}

export function AnswerView(props: ComponentProps<typeof AnswerViewPanel>) {
  return (
    <Loading what="the answer">
      <LazyAnswerView {...props} />
    </Loading>
  );
}

export function EvidenceView(props: ComponentProps<typeof EvidenceViewPanel>) {
  return (
    <Loading what="the evidence">
      <LazyEvidenceView {...props} />
    </Loading>
  );
}

/** Mounted from the first opened passage on, so later closes and opens go through the dialog itself. */
export function PassageDialog(props: ComponentProps<typeof PassageDialogPanel>) {
  const used = useRef(false);
  if (props.candidate) used.current = true;
  if (!used.current) return null;
  return (
    <Loading what="the passage">
      <LazyPassageDialog {...props} />
    </Loading>
  );
}

export function TuningPanel(props: ComponentProps<typeof TuningPanelView>) {
  return (
    <Loading what="the tuning settings">
      <LazyTuningPanel {...props} />
    </Loading>
  );
}

export function BatchReport(props: ComponentProps<typeof BatchReportPanel>) {
  return (
    <Loading what="the report">
      <LazyBatchReport {...props} />
    </Loading>
  );
}

export function EnginePicker(props: ComponentProps<typeof EnginePickerPanel>) {
  return (
    <Loading what="the engine choice">
      <LazyEnginePicker {...props} />
    </Loading>
  );
}

export function ModelPicker(props: ComponentProps<typeof ModelPickerPanel>) {
  return (
    <Loading what="the model choice">
      <LazyModelPicker {...props} />
    </Loading>
  );
}

/** A thread with no turns yet shows only the answer (as ThreadView does), without loading the turns' view. */
export function ThreadView(props: ComponentProps<typeof ThreadViewPanel>) {
  if (!props.state.thread || props.state.thread.roots.length === 0) return <>{props.viewedAnswer}</>;
  return (
    <Loading what="the conversation">
      <LazyThreadView {...props} />
    </Loading>
  );
}

export function OfflinePanel(props: ComponentProps<typeof OfflinePanelView>) {
  return (
    <Loading what="the offline status">
      <LazyOfflinePanel {...props} />
    </Loading>
  );
}

export function ThreadList(props: ComponentProps<typeof ThreadListPanel>) {
  return (
    <Loading what="the threads">
      <LazyThreadList {...props} />
    </Loading>
  );
}

export function StatusPanel(props: ComponentProps<typeof StatusPanelView>) {
  return (
    <Loading what="the models">
      <LazyStatusPanel {...props} />
    </Loading>
  );
}

/** Says nothing while it loads: in a visit with storage of its own the notice shows nothing at all. */
export function StorageNotice(props: ComponentProps<typeof StorageNoticeView>) {
  return (
    <Suspense fallback={null}>
      <LazyStorageNotice {...props} />
    </Suspense>
  );
}
