// The library's vector index. The library opens it when the page loads, so a new choice takes
// effect on the next page load; the panel says so and offers the reload.
import type { IndexChoice } from '../../vector/vector-index';

const NAMES: Record<IndexChoice, string> = {
  auto: 'Automatic (flat while small, compact from 200,000 passages; default)',
  flat: 'Flat (exact scan)',
  voy: 'Voy (k-d tree in WASM)',
  compact: 'Compact (1-bit codes + int8 rescoring, for very large libraries)',
};

export function IndexSetting(props: {
  kind: IndexChoice;
  inUse: IndexChoice;
  onKind: (k: IndexChoice) => void;
  onReload: () => void;
}) {
  return (
    <details className="advanced">
      <summary>Advanced</summary>
      <div className="select">
        <label htmlFor="index-kind">Vector index</label>
        <select
          id="index-kind"
          data-testid="index-kind"
          value={props.kind}
          onChange={(e) => props.onKind(e.target.value as IndexChoice)}
        >
          {(Object.keys(NAMES) as IndexChoice[]).map((k) => (
            <option key={k} value={k}>
              {NAMES[k]}
            </option>
          ))}
        </select>
      </div>
      <p className="muted hint">
        Flat and voy find the same passages; flat measured faster at every library size tried. Compact keeps one bit per
        dimension in memory and rescores the best candidates: about 1/16 of the memory, recall@10 about 0.98 on
        embeddings (see README); it is saved on disk and re-opens without reading the stored vectors. Automatic switches
        a growing library to it without re-embedding anything; the status panel says which one serves and why.
      </p>
      {props.kind !== props.inUse && (
        <div className="notice" role="status" data-testid="index-reload">
          <p>
            The library is using the {NAMES[props.inUse]} index. Reload the page to switch to {NAMES[props.kind]}: it is
            built from your stored vectors, nothing is lost or embedded again.
          </p>
          <button type="button" onClick={props.onReload}>
            Reload now
          </button>
        </div>
      )}
    </details>
  );
}
