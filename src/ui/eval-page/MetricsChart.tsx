import { CONFIGS, type ConfigId } from '../../eval-runner/configurations';
import { METRIC_LABELS, METRICS, type ConfigSummary } from '../../eval-runner/summary';

const COLOURS: Record<ConfigId, string> = {
  'no-retrieval': '#8a8f98',
  rag: '#1f77b4',
  'self-rag': '#2ca02c',
  'self-crag': '#d62728',
};

/** Grouped bars, one group per metric (all in [0, 1]), one bar per configuration. Plain SVG elements. */
export function MetricsChart({ summary }: { summary: ConfigSummary[] }) {
  const barW = 14;
  const gap = 18;
  const groupW = summary.length * barW + gap;
  const h = 160;
  const top = 10;
  const left = 34;
  const width = left + METRICS.length * groupW + 10;
  const height = top + h + 54;
  const y = (v: number) => top + h - v * h;
  return (
    <figure className="eval-chart">
      <svg
        role="img"
        aria-label="Metrics by configuration"
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
      >
        {[0, 0.25, 0.5, 0.75, 1].map((t) => (
          <g key={t}>
            <line x1={left} x2={width - 10} y1={y(t)} y2={y(t)} stroke="currentColor" strokeOpacity={0.15} />
            <text x={left - 4} y={y(t) + 4} fontSize={10} textAnchor="end" fill="currentColor">
              {t.toFixed(2)}
            </text>
          </g>
        ))}
        {METRICS.map((m, mi) => (
          <g key={m} transform={`translate(${left + mi * groupW + gap / 2}, 0)`}>
            {summary.map((s, si) => {
              const v = s[m];
              const label = `${CONFIGS.find((c) => c.id === s.config)?.label}: ${METRIC_LABELS[m]} ${v === null ? 'n/a' : v.toFixed(2)}`;
              return v === null ? (
                <text
                  key={s.config}
                  x={si * barW + barW / 2}
                  y={y(0) - 2}
                  fontSize={9}
                  textAnchor="middle"
                  fill="currentColor"
                >
                  –
                </text>
              ) : (
                <rect
                  key={s.config}
                  x={si * barW}
                  y={y(v)}
                  width={barW - 2}
                  height={Math.max(0.5, v * h)}
                  fill={COLOURS[s.config]}
                >
                  <title>{label}</title>
                </rect>
              );
            })}
            <text
              x={(summary.length * barW) / 2}
              y={top + h + 14}
              fontSize={10}
              textAnchor="middle"
              fill="currentColor"
            >
              {METRIC_LABELS[m].split(' ')[0]}
            </text>
            <text
              x={(summary.length * barW) / 2}
              y={top + h + 26}
              fontSize={10}
              textAnchor="middle"
              fill="currentColor"
            >
              {METRIC_LABELS[m].split(' ').slice(1).join(' ')}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>
        {summary.map((s) => (
          <span key={s.config} className="eval-legend">
            <svg width={10} height={10} aria-hidden="true">
              <rect width={10} height={10} fill={COLOURS[s.config]} />
            </svg>{' '}
            {CONFIGS.find((c) => c.id === s.config)?.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
