// The other candidates at a step: their critique probabilities, scores and
// whether they survived the beam.
import type { Candidate, Ranking } from '../core/types';
import { critiqueOf } from '../app/view/critique-badges';
import { withheldLabel } from '../app/view/no-answer';
import { whyChosen, whyRow } from '../app/view/why-chosen';
import { CorrectionDetails } from './CorrectionDetails';
import { PassageRanks } from './PassageRanks';
import { citationLabel } from '../core/source-location';

function fmt(n: number | undefined, digits = 2): string {
  return n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(digits);
}

// Each cell carries its column's name, so a phone shows one card per candidate with the names beside the values.
const COLUMNS = [
  'Candidate',
  'Passage',
  'Found by (words rank · meaning rank · re-rank score)',
  'p(Relevant)',
  'p(Full / Partial / None)',
  'ISSUP',
  'ISUSE (−1…1)',
  'Segment score',
  'Path score',
  'Beam, and why',
];

export function WhyPanel(props: {
  id: string;
  siblings: Candidate[];
  ranking: Ranking;
  chosenId: string;
  onOpenPassage?: (c: Candidate) => void;
}) {
  const rows = [...props.siblings].sort(
    (a, b) =>
      (props.ranking.scored.get(b.id)?.segmentScore ?? -Infinity) -
      (props.ranking.scored.get(a.id)?.segmentScore ?? -Infinity),
  );
  // Every candidate of a step comes from the same corrected retrieval.
  const correction = props.siblings.find((c) => c.correction)?.correction;
  return (
    <div id={props.id} className="why-panel" data-testid="why-panel">
      {correction && (
        <CorrectionDetails
          correction={correction}
          titles={new Map(props.siblings.flatMap((c) => (c.passage ? [[c.passage.id, c.passage.title] as const] : [])))}
        />
      )}
      <p data-testid="why-chosen">{whyChosen(props.ranking.scored.get(props.chosenId))}</p>
      <table>
        <caption>Candidates at this step, one per passage, best segment score first</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th scope="col" key={c}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => {
            const s = props.ranking.scored.get(c.id);
            const k = critiqueOf(c);
            const chosen = c.id === props.chosenId;
            return (
              <tr
                key={c.id}
                className={chosen ? 'chosen' : undefined}
                data-testid="why-row"
                data-candidate-id={c.id}
                data-withheld={c.withheld?.reason}
              >
                <td data-label={COLUMNS[0]}>
                  {chosen && <strong>Chosen: </strong>}
                  {c.withheld && (
                    <strong className="withheld-label" data-testid="withheld-reason">
                      {withheldLabel(c)}{' '}
                    </strong>
                  )}
                  {c.text}
                </td>
                <td data-label={COLUMNS[1]}>
                  {c.passage && props.onOpenPassage ? (
                    <button
                      type="button"
                      className="link"
                      data-testid="why-open-source"
                      onClick={() => props.onOpenPassage?.(c)}
                    >
                      {citationLabel(c.passage)}
                    </button>
                  ) : (
                    (c.passage?.title ?? 'none')
                  )}
                </td>
                <td data-label={COLUMNS[2]}>{c.passage ? <PassageRanks ranks={c.passage.ranks} /> : '–'}</td>
                <td data-label={COLUMNS[3]}>{fmt(k.rel?.probs.relevant)}</td>
                <td data-label={COLUMNS[4]}>
                  {k.sup ? `${fmt(k.sup.probs.full)} / ${fmt(k.sup.probs.partial)} / ${fmt(k.sup.probs.none)}` : '–'}
                </td>
                <td data-label={COLUMNS[5]}>{fmt(k.sup?.score)}</td>
                <td data-label={COLUMNS[6]}>{fmt(k.use?.score)}</td>
                <td data-label={COLUMNS[7]}>{fmt(s?.segmentScore, 3)}</td>
                <td data-label={COLUMNS[8]}>{fmt(s?.pathScore, 3)}</td>
                <td data-label={COLUMNS[9]} data-testid="why-reason">
                  {c.withheld ? 'withheld: not an answer' : whyRow(s, props.chosenId)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
