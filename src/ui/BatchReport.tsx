// What a batch of files did: one summary line, then every refused file with its
// reason and every document that lost something, kept until dismissed.
import type { BatchReportView } from '../app/persist/batch-reports';

function summary(r: BatchReportView): string {
  const parts = [`${r.added} added`, `${r.refused.length} refused`];
  if (r.already) parts.push(`${r.already} already in the library`);
  if (r.skipped) parts.push(`${r.skipped} skipped (not documents)`);
  if (r.aborted) parts.push(`stopped${r.notTried ? `, ${r.notTried} not tried` : ''}`);
  return parts.join(', ');
}

/** The documents named when few, else counted: a folder's worth of names says nothing. */
function which(names: string[]): string {
  if (names.length === 1) return names[0]!;
  if (names.length <= 3) return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${names.length} documents`;
}

export function BatchReport({ report, onDismiss }: { report: BatchReportView; onDismiss: () => void }) {
  const notEmbedded = report.notEmbedded ?? [];
  // Only a refused file is an error; a document added with something left out is worth a warning, not red.
  const tone =
    report.refused.length > 0 ? 'error' : report.notes.length > 0 || notEmbedded.length > 0 ? 'notice warn' : 'notice';
  return (
    <section
      className={`batch-report message ${tone}`}
      data-tone={tone}
      data-testid="batch-report"
      aria-label="What the last batch did"
    >
      <div>
        <p className="batch-summary" data-testid="batch-summary" role={report.refused.length ? 'alert' : 'status'}>
          {summary(report)}
        </p>
        {report.refused.length > 0 && (
          <ul className="batch-refused" data-testid="batch-refused">
            {report.refused.map((f, i) => (
              <li key={i} data-name={f.name}>
                <strong>{f.name}</strong>: {f.reason}
              </li>
            ))}
          </ul>
        )}
        {notEmbedded.length > 0 && (
          <ul className="batch-notes" data-testid="batch-not-embedded">
            {notEmbedded.map((n, i) => (
              <li key={i} data-count={n.names.length} title={n.names.join('\n')}>
                <strong>{which(n.names)}</strong> {n.names.length === 1 ? 'was' : 'were'} added but not embedded yet (
                {n.reason}): {n.names.length === 1 ? 'it is' : 'they are'} found by their words until the embedding
                model loads, and embedded then without adding {n.names.length === 1 ? 'it' : 'them'} again.
              </li>
            ))}
          </ul>
        )}
        {report.notes.length > 0 && (
          <ul className="batch-notes" data-testid="batch-notes">
            {report.notes.map((n, i) => (
              <li key={i} data-name={n.name}>
                <strong>{n.name}</strong> was added, but {n.note}
              </li>
            ))}
          </ul>
        )}
      </div>
      <button type="button" className="dismiss" aria-label="Dismiss this report" onClick={onDismiss}>
        ✕
      </button>
    </section>
  );
}
