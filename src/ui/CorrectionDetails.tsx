// What Self-CRAG did to a step's retrieval: its action, the rewritten query, and each
// knowledge strip kept or dropped. Strip text comes from documents (or the outside source)
// and is rendered as text only.
import type { KnowledgeSource, KnowledgeStrip } from '../core/ports';
import type { Candidate } from '../core/types';

const ACTIONS = {
  correct: { label: 'Correct', meaning: 'a retrieved passage was judged relevant; the passages were refined' },
  ambiguous: {
    label: 'Ambiguous',
    meaning: 'no passage was clearly relevant or clearly irrelevant; refined and searched again',
  },
  incorrect: {
    label: 'Incorrect',
    meaning: 'every retrieved passage was judged irrelevant; discarded and searched again',
  },
} as const;

const SOURCES: Record<KnowledgeSource, string> = {
  retrieval: 'first retrieval',
  research: 'library re-search',
  external: 'external source',
};

/** "Title · passage 3" when the title is known, else the passage number from its id (`doc#2`), else the id. */
function where(id: string, titles: ReadonlyMap<string, string>): string {
  const n = /#(\d+)$/.exec(id);
  const passage = n ? `passage ${Number(n[1]) + 1}` : id;
  const title = titles.get(id);
  return title ? `${title} · ${passage}` : passage;
}

function why(s: KnowledgeStrip): string {
  if (s.kept) return 'kept';
  return s.dropped === 'beyond-top-k'
    ? 'dropped: better strips of the passage filled the top-k'
    : 'dropped: below the strip threshold';
}

export function CorrectionDetails({
  correction,
  titles = new Map(),
}: {
  correction: NonNullable<Candidate['correction']>;
  /** Titles of the passages the step's candidates cite, by passage id. */
  titles?: ReadonlyMap<string, string>;
}) {
  const action = ACTIONS[correction.action];
  const strips = correction.strips ?? [];
  const kept = strips.filter((s) => s.kept).length;
  return (
    <section
      className="correction-details"
      data-testid="correction-details"
      aria-label="Corrective retrieval (Self-CRAG)"
    >
      <h3>Corrective retrieval (Self-CRAG)</h3>
      <p data-testid="correction-action">
        Action: <strong>{action.label}</strong>: {action.meaning}.
      </p>
      {correction.rewrite !== undefined && (
        <p data-testid="correction-rewrite">
          Searched again with the rewritten query: <q>{correction.rewrite}</q>
        </p>
      )}
      {correction.noEvidence === 'abstain' && <p>No reliable evidence was found, so this step abstained.</p>}
      {correction.noEvidence === 'answer-without-retrieval' && (
        <p>No reliable evidence was found, so this step was written without retrieval.</p>
      )}
      {strips.length > 0 ? (
        <table>
          <caption>
            Knowledge strips: {kept} kept, {strips.length - kept} dropped
          </caption>
          <thead>
            <tr>
              <th scope="col">Strip</th>
              <th scope="col">From</th>
              <th scope="col">Relevance</th>
              <th scope="col">Verdict</th>
            </tr>
          </thead>
          <tbody>
            {strips.map((s) => (
              <tr
                key={`${s.source}|${s.passageId}|${s.index}`}
                data-testid="strip"
                data-kept={s.kept ? 'true' : 'false'}
              >
                <td>{s.text}</td>
                <td>
                  {SOURCES[s.source]}: {where(s.passageId, titles)}
                </td>
                <td>{Number.isFinite(s.score) ? s.score.toFixed(2) : '–'}</td>
                <td>{why(s)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No knowledge strips were scored at this step.</p>
      )}
      {correction.details && <p className="muted">Log: {correction.details}</p>}
    </section>
  );
}
