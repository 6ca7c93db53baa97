import { CONFIGS, type ConfigId } from '../../eval-runner/configurations';
import type { EvalItem } from '../../eval-runner/question-set';
import type { QuestionRecord } from '../../eval-runner/run';
import { fmt } from './SummaryTable';
import { StripsList } from './StripsList';

/** Every answer side by side; text from documents and models is rendered as text only. */
export function QuestionTable({
  items,
  records,
  configs,
}: {
  items: EvalItem[];
  records: QuestionRecord[];
  configs: readonly ConfigId[];
}) {
  const rows = items.filter((it) => records.some((r) => r.itemId === it.id));
  return (
    <table className="eval-table eval-questions" aria-label="Answers by question">
      <thead>
        <tr>
          <th scope="col">Question</th>
          {configs.map((c) => (
            <th scope="col" key={c}>
              {CONFIGS.find((x) => x.id === c)?.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((it) => (
          <tr key={it.id}>
            <th scope="row">
              {it.question}
              <div className="muted">gold: {it.answers.join(' | ')}</div>
            </th>
            {configs.map((c) => {
              const r = records.find((x) => x.itemId === it.id && x.config === c);
              if (!r)
                return (
                  <td key={c} className="muted">
                    …
                  </td>
                );
              if (r.error !== undefined)
                return (
                  <td key={c} className="eval-error">
                    Error: {r.error}
                  </td>
                );
              const unsupported = r.ragas?.faithfulness.unsupported ?? [];
              return (
                <td key={c} data-correct={r.correct ? 'yes' : 'no'}>
                  <div>
                    <span role="img" aria-label={r.correct ? 'correct' : 'incorrect'}>
                      {r.correct ? '✔' : '✘'}
                    </span>{' '}
                    {r.abstained ? <em>(abstained)</em> : r.answer || <em>(empty)</em>}
                  </div>
                  <div className="muted">
                    {r.retrieved ? 'retrieved' : 'no retrieval'}
                    {r.actions.length ? ` · CRAG: ${r.actions.join(', ')}` : ''}
                    {r.cited ? ` · citations supported ${r.supported}/${r.cited}` : ''}
                  </div>
                  {r.ragas && (
                    <div className="muted">
                      F {fmt(r.ragas.faithfulness.score)} · AR {fmt(r.ragas.answerRelevance.score)} · CR{' '}
                      {fmt(r.ragas.contextRelevance.score)}
                    </div>
                  )}
                  {r.corrections.map((c, i) => (
                    <div key={i} className="muted">
                      {c.rewrite !== undefined && <div>Rewritten query: {c.rewrite}</div>}
                      {c.noEvidence && (
                        <div>
                          No reliable evidence:{' '}
                          {c.noEvidence === 'abstain' ? 'abstained' : 'answered without retrieval'}
                        </div>
                      )}
                      {c.strips && c.strips.length > 0 && <StripsList strips={c.strips} />}
                    </div>
                  ))}
                  {unsupported.length > 0 && (
                    <details>
                      <summary>{unsupported.length} unsupported statement(s)</summary>
                      <ul>
                        {unsupported.map((s, i) => (
                          <li key={i}>{s}</li>
                        ))}
                      </ul>
                    </details>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
