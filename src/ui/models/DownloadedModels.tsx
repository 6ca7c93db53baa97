// The models this browser has downloaded, each deletable after a confirmation (it downloads again
// the next time it is used).
import { useState } from 'react';
import type { ModelCacheState } from '../../app/state/model-downloads';
import type { ModelEntry } from '../../app/view/model-entries';
import type { ModelChoice } from '../../generator/catalogue';

function ConfirmDelete(props: { entry: ModelEntry; onDelete: () => void; onKeep: () => void }) {
  const { entry } = props;
  return (
    <fieldset className="inline-group" aria-label={`Confirm deleting ${entry.label}`}>
      Delete it from this browser? It downloads again{entry.size ? ` (${entry.size})` : ''} the next time it is used.{' '}
      <button type="button" data-testid="confirm-delete-model" onClick={props.onDelete}>
        Yes, delete
      </button>{' '}
      <button type="button" onClick={props.onKeep}>
        Keep it
      </button>
    </fieldset>
  );
}

export function DownloadedModels(props: {
  downloaded: ModelEntry[];
  cache: ModelCacheState;
  /** The model being loaded, which cannot be deleted meanwhile. */
  loadingKey: string | null;
  onDelete: (choice: ModelChoice) => void;
}) {
  const { cache } = props;
  const [confirming, setConfirming] = useState<string | null>(null);
  if (props.downloaded.length === 0) return null;
  return (
    <div data-testid="downloaded-models">
      <p className="muted">Downloaded in this browser (loads without the network):</p>
      <ul>
        {props.downloaded.map((e) => {
          const busy = e.key === props.loadingKey;
          return (
            <li key={e.key} data-testid="downloaded-model" data-model={e.key}>
              {e.label}{' '}
              {confirming === e.key ? (
                <ConfirmDelete
                  entry={e}
                  onDelete={() => {
                    setConfirming(null);
                    props.onDelete(e.choice);
                  }}
                  onKeep={() => setConfirming(null)}
                />
              ) : (
                <button
                  type="button"
                  data-testid="delete-model"
                  aria-label={`Delete downloaded model ${e.label}`}
                  disabled={busy || cache.deleting !== null}
                  title={busy ? 'It is loading: cancel the download first.' : undefined}
                  onClick={() => setConfirming(e.key)}
                >
                  {cache.deleting === e.key ? 'Deleting…' : 'Delete downloaded model'}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
