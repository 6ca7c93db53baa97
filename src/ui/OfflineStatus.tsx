// Whether the page works without a network and what it keeps in this browser (the "new version"
// prompt is UpdateBanner.tsx). Renders state and sends intents only.
import { APP_BUILD, type OfflineState } from '../app/state/offline-shell';
import type { CachedModels } from '../app/state/offline-inventory';
import type { OfflineWiring } from '../app/wiring/offline-panel';
import type { StorageMode } from '../app/state/storage-plan';
import type { StorageState } from '../app/browser/storage-quota';
import { estimateText } from '../app/view/storage-messages';
import { useStore } from './hooks';

const SHELL_TEXT: Record<OfflineState['shell'], string> = {
  saving: 'Saving the app in this browser for offline use…',
  ready: 'The app is saved in this browser and opens without a network.',
  unsupported: 'This browser cannot keep the app for offline use (it needs https or localhost and service workers).',
  error: 'The app could not be saved for offline use',
};

/** What is still missing before the page can answer with the network off; empty when nothing is. */
export function missingOffline(offline: OfflineState, models: CachedModels | null): string[] {
  const missing: string[] = [];
  if (offline.shell !== 'ready') missing.push('the app itself');
  if (!models || models.evaluator.length === 0)
    missing.push('the evaluator models (they download when the page starts)');
  if (!models || models.generator.length === 0)
    missing.push('a language model (it downloads with your first question)');
  return missing;
}

/** A cross-site frame the browser gives no storage: what the panel says instead of errors and quotas that do not apply. */
function NoStorageHere() {
  return (
    <section
      className="panel offline"
      aria-labelledby="offline-heading"
      data-testid="offline-status"
      data-ready="false"
      data-shell="memory"
    >
      <h2 id="offline-heading">Offline and storage</h2>
      <p data-testid="offline-summary">
        <strong>Nothing is kept in this browser here.</strong> Embedded on another site without storage, this page
        cannot be saved for offline use and keeps no documents, models or settings after it closes. Open the page on its
        own site (the link in the notice above) to use it offline.
      </p>
    </section>
  );
}

export function OfflineStatus(props: {
  offline: OfflineState;
  models: CachedModels | null;
  storage: StorageState;
  mode?: StorageMode | null;
  onDismissWarning: () => void;
}) {
  const { offline, models, storage } = props;
  // The service worker's refusal and the quota figures say nothing useful where the browser gives no storage.
  if (props.mode === 'memory') return <NoStorageHere />;
  const missing = missingOffline(offline, models);
  const ready = missing.length === 0;
  return (
    <section
      className="panel offline"
      aria-labelledby="offline-heading"
      data-testid="offline-status"
      data-ready={String(ready)}
      data-shell={offline.shell}
      data-build={APP_BUILD}
    >
      <h2 id="offline-heading">Offline and storage</h2>
      <p data-testid="offline-summary">
        <strong>{ready ? 'Ready to work offline.' : 'Not ready to work offline yet.'}</strong>{' '}
        {ready
          ? 'You can turn the network off: the page reloads, answers and adds documents.'
          : `Still needed: ${missing.join('; ')}.`}
      </p>
      <ul>
        <li data-testid="offline-shell">
          {/* Where offline use is unsupported for a known reason, the reason is the whole sentence. */}
          {offline.shell === 'unsupported' && offline.error ? offline.error : SHELL_TEXT[offline.shell]}
          {offline.shell !== 'unsupported' && offline.error && `: ${offline.error}`}
        </li>
        {models && (
          <li data-testid="offline-models">
            Models kept in this browser: evaluator{' '}
            {models.evaluator.length > 0 ? models.evaluator.join(', ') : 'none yet'}; language model{' '}
            {models.generator.length > 0 ? models.generator.join(', ') : 'none yet'}.
          </li>
        )}
        {APP_BUILD && <li>Version: {APP_BUILD}</li>}
        {storage.estimate && <li data-testid="storage-estimate">Storage: {estimateText(storage.estimate)}.</li>}
        {storage.persisted !== null && (
          <li data-testid="storage-persisted">
            {storage.persisted
              ? 'The browser has promised to keep this data even when space runs low.'
              : 'The browser may clear this data when space runs low (it has not granted persistent storage).'}
          </li>
        )}
      </ul>
      {storage.warning && (
        <p className="error" role="alert" data-testid="storage-warning">
          {storage.warning}{' '}
          <button type="button" onClick={props.onDismissWarning}>
            Dismiss
          </button>
        </p>
      )}
    </section>
  );
}

export type { OfflineWiring };

// The page's own storage (no plan: not framed, or a test page): a constant store for the hook.
const OWN: { mode: StorageMode | null } = { mode: null };
const NO_PLAN = { get: () => OWN, subscribe: () => () => undefined };

export function OfflinePanel(props: OfflineWiring) {
  const offline = useStore(props.offline, props.offline.get);
  const models = useStore(props.models, props.models.get);
  const storage = useStore(props.storage, props.storage.get);
  const plan = useStore(props.plan ?? NO_PLAN, (props.plan ?? NO_PLAN).get);
  return (
    <OfflineStatus
      offline={offline}
      models={models}
      storage={storage}
      mode={plan.mode}
      onDismissWarning={props.storage.clearWarning}
    />
  );
}
