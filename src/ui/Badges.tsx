// The three critique badges. Each says its verdict in words and an icon (never
// colour alone) and shows the probabilities on hover and on keyboard focus.
import { useId } from 'react';
import { critiqueOf, type CandidateLike, type Critique } from '../app/view/critique-badges';

function pct(p: number): string {
  return `${Math.round(p * 100)}%`;
}

function Badge(props: { kind: string; tone: 'good' | 'mid' | 'bad'; label: string; icon: string; tip: string[] }) {
  const tipId = useId();
  return (
    // A button so the keyboard reaches it: focus shows the probabilities, as hover does.
    <button
      type="button"
      className={`badge badge-${props.kind} tone-${props.tone}`}
      aria-label={props.label}
      aria-describedby={tipId}
      data-badge={props.kind}
    >
      <span aria-hidden="true" className="badge-icon">
        {props.icon}
      </span>
      {props.label}
      <span role="tooltip" id={tipId} className="tip">
        {props.tip.map((line) => (
          <span key={line} className="tip-line">
            {line}
          </span>
        ))}
      </span>
    </button>
  );
}

export function RelBadge({ rel }: { rel: NonNullable<Critique['rel']> }) {
  const { relevant: r, irrelevant: i } = rel.probs;
  const relevant = r >= i;
  return (
    <Badge
      kind="isrel"
      tone={relevant ? 'good' : 'bad'}
      icon={relevant ? '✓' : '✗'}
      label={relevant ? 'Relevant' : 'Irrelevant'}
      tip={[`ISREL ${rel.score.toFixed(2)}`, `Relevant ${pct(r)}`, `Irrelevant ${pct(i)}`]}
    />
  );
}

export function SupBadge({ sup }: { sup: NonNullable<Critique['sup']> }) {
  const { full: f, partial: p, none: n } = sup.probs;
  const top = f >= p && f >= n ? 'full' : p >= n ? 'partial' : 'none';
  const label = top === 'full' ? 'Fully supported' : top === 'partial' ? 'Partially supported' : 'No support';
  return (
    <Badge
      kind="issup"
      tone={top === 'full' ? 'good' : top === 'partial' ? 'mid' : 'bad'}
      icon={top === 'full' ? '●' : top === 'partial' ? '◐' : '○'}
      label={label}
      tip={[`ISSUP ${sup.score.toFixed(2)}`, `Fully ${pct(f)}`, `Partially ${pct(p)}`, `No support ${pct(n)}`]}
    />
  );
}

export function UseBadge({ use }: { use: NonNullable<Critique['use']> }) {
  let best = 0;
  use.probs.forEach((p, i) => {
    if (p > (use.probs[best] ?? 0)) best = i;
  });
  const level = best + 1;
  return (
    <Badge
      kind="isuse"
      tone={level >= 4 ? 'good' : level === 3 ? 'mid' : 'bad'}
      icon="★"
      label={`Utility ${level}/5`}
      tip={[`ISUSE ${use.score.toFixed(2)}`, ...use.probs.map((p, i) => `Utility ${i + 1}: ${pct(p)}`)]}
    />
  );
}

export function CritiqueBadges({ candidate }: { candidate: CandidateLike }) {
  const c = critiqueOf(candidate);
  return (
    <span className="badges">
      {c.rel && <RelBadge rel={c.rel} />}
      {c.sup && <SupBadge sup={c.sup} />}
      {c.use && <UseBadge use={c.use} />}
    </span>
  );
}
