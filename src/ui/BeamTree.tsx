// A compact view of everything the decode considered: one row per depth, one
// chip per candidate, marked when it survived the beam or is on the chosen path.
import { withheldLabel } from '../app/view/no-answer';
import type { AnswerTree, Ranking } from '../core/types';

const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

const SYMBOLS = { chosen: '★', kept: '●', dropped: '○', pruned: '⊘', withheld: '✕' } as const;

export function BeamTree({ tree, ranking }: { tree: AnswerTree; ranking: Ranking }) {
  const chosen = new Set(ranking.best.map((b) => b.candidate.id));
  const byDepth: Map<number, typeof tree.candidates> = new Map();
  for (const c of tree.candidates) byDepth.set(c.depth, [...(byDepth.get(c.depth) ?? []), c]);
  const depths = [...byDepth.keys()].sort((a, b) => a - b);
  return (
    <details className="beam-tree" data-testid="beam-tree">
      <summary>
        Beam tree: {counted(tree.candidates.length, 'candidate')} over {counted(depths.length, 'step')}
      </summary>
      <ol className="beam-levels">
        {depths.map((d) => (
          <li key={d}>
            <span className="beam-depth">Step {d + 1}</span>
            <ul className="beam-nodes">
              {(byDepth.get(d) ?? []).map((c) => {
                const s = ranking.scored.get(c.id);
                const state = chosen.has(c.id)
                  ? 'chosen'
                  : c.withheld
                    ? 'withheld'
                    : s?.pruned
                      ? 'pruned'
                      : s?.inBeam
                        ? 'kept'
                        : 'dropped';
                const symbol = SYMBOLS[state];
                return (
                  <li
                    key={c.id}
                    className={`beam-node beam-${state}`}
                    title={`${c.text}\nsegment ${s?.segmentScore.toFixed(3) ?? '–'} · path ${s?.pathScore.toFixed(3) ?? '–'} · ${state}`}
                    data-state={state}
                  >
                    <span aria-hidden="true">{symbol}</span> {s ? s.pathScore.toFixed(2) : '–'}
                    <span className="sr-only">
                      {' '}
                      {c.withheld ? withheldLabel(c) : state}: {c.text}
                    </span>
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ol>
      <p className="legend">
        Path scores. ★ chosen · ● kept in the beam · ○ not kept · ⊘ dropped by the hard constraint · ✕ not an answer
        (withheld)
      </p>
    </details>
  );
}
