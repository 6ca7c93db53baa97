// The library's vector index. The library builds it from the stored vectors when it opens,
// so a new choice takes effect on the next page load; the panel says so and offers the reload.
import type { IndexKind } from '../core/vector-index';

const NAMES: Record<IndexKind, string> = {
  flat: 'Flat (exact scan, default)',
  voy: 'Voy (k-d tree in WASM)',
  compact: 'Compact (1-bit codes + int8 rescoring, for very large libraries)',
};

export function IndexSetting(props: { kind: IndexKind; inUse: IndexKind; onKind: (k: IndexKind) => void; onReload: () => void }) {
  return (
    <details className="advanced">
      <summary>Advanced</summary>
      <div className="select">
        <label htmlFor="index-kind">Vector index</label>
        <select id="index-kind" data-testid="index-kind" value={props.kind} onChange={(e) => props.onKind(e.target.value as IndexKind)}>
          {(Object.keys(NAMES) as IndexKind[]).map((k) => (
            <option key={k} value={k}>
              {NAMES[k]}
            </option>
          ))}
        </select>
      </div>
      <p className="muted hint">
        Flat and voy find the same passages; flat measured faster at every library size tried. Compact keeps one bit per dimension in
        memory and rescores the best candidates: about 1/8 of the memory, recall@10 about 0.99 on embeddings (see README).
      </p>
      {props.kind !== props.inUse && (
        <div className="notice" role="status" data-testid="index-reload">
          <p>
            The library is using the {NAMES[props.inUse]} index. Reload the page to switch to {NAMES[props.kind]}: it is rebuilt
            from your stored documents, nothing is lost.
          </p>
          <button type="button" onClick={props.onReload}>
            Reload now
          </button>
        </div>
      )}
    </details>
  );
}
