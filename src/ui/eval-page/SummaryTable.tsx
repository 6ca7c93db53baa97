import { CONFIGS } from '../../eval-runner/configurations';
import { METRIC_LABELS, METRICS, type ConfigSummary } from '../../eval-runner/summary';

export const fmt = (v: number | null, digits = 2) => (v === null ? '–' : v.toFixed(digits));
const ms = (v: number | null) => (v === null ? '–' : v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`);

export function SummaryTable({ summary }: { summary: ConfigSummary[] }) {
  return (
    <table className="eval-table" aria-label="Summary by configuration">
      <thead>
        <tr>
          <th scope="col">Configuration</th>
          <th scope="col">Questions</th>
          {METRICS.map((m) => (
            <th scope="col" key={m}>
              {METRIC_LABELS[m]}
            </th>
          ))}
          <th scope="col">Time per answer</th>
          <th scope="col">Time for RAGAS</th>
          <th scope="col">Errors</th>
        </tr>
      </thead>
      <tbody>
        {summary.map((s) => (
          <tr key={s.config} data-config={s.config}>
            <th scope="row">{CONFIGS.find((c) => c.id === s.config)?.label}</th>
            <td>{s.questions}</td>
            {METRICS.map((m) => (
              <td key={m} data-metric={m}>
                {fmt(s[m])}
              </td>
            ))}
            <td>{ms(s.meanAnswerMs)}</td>
            <td>{ms(s.meanRagasMs)}</td>
            <td>{s.errors}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
