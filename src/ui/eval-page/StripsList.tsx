import type { KnowledgeStrip } from '../../core/ports';

/** What CRAG's refinement kept and dropped, strip by strip, in passage order. Text only. */
export function StripsList({ strips }: { strips: readonly KnowledgeStrip[] }) {
  const kept = strips.filter((s) => s.kept).length;
  return (
    <details className="eval-strips">
      <summary>
        Knowledge strips: {kept} kept, {strips.length - kept} dropped
      </summary>
      <ol>
        {strips.map((s) => (
          <li key={`${s.source}:${s.passageId}:${s.index}`} data-kept={s.kept ? 'yes' : 'no'}>
            <span>
              {s.kept ? '✔ kept' : `✘ dropped (${s.dropped === 'beyond-top-k' ? 'beyond top-k' : 'below threshold'})`}
            </span>{' '}
            <span className="muted">
              {s.source} · {s.passageId} · score {s.score.toFixed(2)}
            </span>
            <div>{s.text}</div>
          </li>
        ))}
      </ol>
    </details>
  );
}
