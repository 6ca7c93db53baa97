// The one notice about where this visit keeps things, with the way to the app's own tab and,
// in a cross-site frame, the button that asks for the app site's saved library and models.
import type { StoragePlan } from '../app/wiring/storage-plan';
import { siteName, storageNotice } from '../app/view/storage-notice';
import { useStore } from './hooks';

export function StorageNotice(props: { plan: StoragePlan; appSite?: string; openUrl: () => string }) {
  const appSite = props.appSite ?? siteName(location.href);
  const state = useStore(props.plan, props.plan.get);
  const view = storageNotice(state, appSite);
  if (!view) return null;
  return (
    <div
      className={`notice${view.tone === 'warn' ? ' warn' : ''}`}
      role="status"
      data-testid="storage-notice"
      data-mode={state.mode ?? ''}
    >
      <p>{view.text}</p>
      <p>
        {view.openLink && (
          <a href={props.openUrl()} target="_blank" rel="noopener" data-testid="open-in-app">
            Open this question on {appSite}
          </a>
        )}
        {view.askLabel && (
          <>
            {' '}
            <button
              type="button"
              disabled={state.asking}
              onClick={() => void props.plan.ask()}
              data-testid="storage-access"
            >
              {view.askLabel}
            </button>
          </>
        )}
      </p>
      {view.refused && <p className="muted">{view.refused}</p>}
    </div>
  );
}
