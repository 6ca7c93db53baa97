// What the library is doing and has done: progress bars with Stop, batch reports, messages.
import type { LibraryActions } from '../../app/view/library-panel';
import type { LibraryViewState } from '../../app/state/library';
// Shown only after a batch of files: its code loads then (lazy-panels.tsx).
import { BatchReport } from '../lazy-panels';
import { ProgressBar } from '../ProgressBar';

function Jobs({ view, onStop, now }: { view: LibraryViewState; onStop: (() => void) | undefined; now: number }) {
  return (
    <>
      {view.jobs.length > 0 && (
        <div className="jobs" aria-live="polite">
          {view.jobs.map((j) => (
            <div key={j.id}>
              <ProgressBar progress={j} now={now} />
              {j.error && <p className="error">{j.error}</p>}
            </div>
          ))}
        </div>
      )}
      {view.busy && onStop && (
        <button type="button" data-testid="stop-batch" onClick={onStop}>
          Stop adding
        </button>
      )}
    </>
  );
}

function Messages({ view, onDismiss }: { view: LibraryViewState; onDismiss: (id: number) => void }) {
  return (
    <div aria-live="polite">
      {view.messages.map((m) => (
        <div key={m.id} className={`message ${m.kind === 'error' ? 'error' : 'notice'}`}>
          <p role={m.kind === 'error' ? 'alert' : undefined}>{m.text}</p>
          <button type="button" className="dismiss" aria-label="Dismiss this message" onClick={() => onDismiss(m.id)}>
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}

export function LibraryActivity({
  view,
  actions,
  now,
}: {
  view: LibraryViewState;
  actions: LibraryActions;
  now: number;
}) {
  return (
    <>
      <Jobs view={view} onStop={actions.stop} now={now} />
      {(view.reports ?? []).map((r) => (
        <BatchReport key={r.id} report={r} onDismiss={() => actions.dismissReport?.(r.id)} />
      ))}
      <Messages view={view} onDismiss={actions.dismiss} />
    </>
  );
}
