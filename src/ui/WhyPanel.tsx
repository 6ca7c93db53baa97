// The other candidates at a step: their critique probabilities, scores and
// whether they survived the beam.
import type { Candidate, Ranking } from '../core/types';
import { critiqueOf } from '../app/view/critique-badges';
import { CorrectionDetails } from './CorrectionDetails';
import { PassageRanks } from './PassageRanks';
import { citationLabel } from '../core/source-location';

function fmt(n: number | undefined, digits = 2): string {
  return n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(digits);
}

export function WhyPanel(props: { id: string; siblings: Candidate[]; ranking: Ranking; chosenId: string; onOpenPassage?: (c: Candidate) => void }) {
  const rows = [...props.siblings].sort(
    (a, b) => (props.ranking.scored.get(b.id)?.segmentScore ?? -Infinity) - (props.ranking.scored.get(a.id)?.segmentScore ?? -Infinity),
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
      <table>
        <caption>Candidates at this step, one per passage, best score first</caption>
        <thead>
          <tr>
            <th scope="col">Candidate</th>
            <th scope="col">Passage</th>
            <th scope="col">Found by (words rank · meaning rank · re-rank score)</th>
            <th scope="col">p(Relevant)</th>
            <th scope="col">p(Full / Partial / None)</th>
            <th scope="col">ISSUP</th>
            <th scope="col">ISUSE (−1…1)</th>
            <th scope="col">Segment score</th>
            <th scope="col">Path score</th>
            <th scope="col">Beam</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => {
            const s = props.ranking.scored.get(c.id);
            const k = critiqueOf(c);
            const chosen = c.id === props.chosenId;
            return (
              <tr key={c.id} className={chosen ? 'chosen' : undefined} data-testid="why-row" data-candidate-id={c.id}>
                <td>
                  {chosen && <strong>Chosen: </strong>}
                  {c.text}
                </td>
                <td>
                  {c.passage && props.onOpenPassage ? (
                    <button type="button" className="link" data-testid="why-open-source" onClick={() => props.onOpenPassage?.(c)}>
                      {citationLabel(c.passage)}
                    </button>
                  ) : (
                    c.passage?.title ?? 'none'
                  )}
                </td>
                <td>{c.passage ? <PassageRanks ranks={c.passage.ranks} /> : '–'}</td>
                <td>{fmt(k.rel?.probs.relevant)}</td>
                <td>
                  {k.sup ? `${fmt(k.sup.probs.full)} / ${fmt(k.sup.probs.partial)} / ${fmt(k.sup.probs.none)}` : '–'}
                </td>
                <td>{fmt(k.sup?.score)}</td>
                <td>{fmt(k.use?.score)}</td>
                <td>{fmt(s?.segmentScore, 3)}</td>
                <td>{fmt(s?.pathScore, 3)}</td>
                <td>{s?.pruned ? `dropped (${s.pruned})` : s?.inBeam ? 'kept' : 'not kept'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
