// The "new version" prompt. It stays in the entry chunk, apart from the offline panel: it is
// what the page shows when a chunk of its own build is gone (lazy-panels.tsx cannot load then).
import type { OfflineState } from '../app/state/offline-shell';
import type { OfflineWiring } from '../app/wiring/offline-panel';
import { useStore } from './hooks';

export function UpdateBanner(props: { offline: OfflineState; onReload: () => void }) {
  const { offline } = props;
  if (!offline.updateReady && !offline.stale) return null;
  return (
    <div className="notice update" role="alert" data-testid="update-prompt">
      {offline.updateReady
        ? 'A new version of this app is ready. '
        : 'This app was updated in another tab or on the server; reload to keep working. '}
      <button type="button" className="primary" onClick={props.onReload} data-testid="update-reload">
        {offline.updateReady ? 'Reload to update' : 'Reload'}
      </button>
    </div>
  );
}

export function OfflineBanner({ offline }: OfflineWiring) {
  const state = useStore(offline, offline.get);
  return <UpdateBanner offline={state} onReload={() => void offline.applyUpdate()} />;
}
