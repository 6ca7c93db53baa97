// Where hybrid retrieval found a passage: its rank among the word (BM25) hits, among the
// meaning (embedding) hits, and the re-rank's score (the cross-encoder's, or the loaded model's). "–" means that list
// did not find it. A stage that did not run for any passage (no embedding model, no re-rank)
// is not listed as "–": the passage was found by its words, and that is said in words.
import type { StagesRan } from '../app/view/rank-stages';
import type { PassageRanks as Ranks } from '../core/ports';

const rank = (r: number | undefined) => (r === undefined ? '–' : `#${r}`);

export function rankSummary(r: Ranks, ran: StagesRan = { dense: true, rerank: true }): string {
  const judge = r.rerankBy === 'generator' ? "the model's re-rank" : 're-rank';
  const rerank = ran.rerank ? ` · ${judge} ${r.rerank === undefined ? '–' : r.rerank.toFixed(2)}` : '';
  if (!ran.dense) return `found by its words (#${r.lexical ?? '–'})${rerank}`;
  return `words ${rank(r.lexical)} · meaning ${rank(r.dense)}${rerank}`;
}

export function PassageRanks({ ranks, ran }: { ranks: Ranks | undefined; ran?: StagesRan }) {
  if (!ranks) return <span className="muted">–</span>;
  return (
    <span
      className="muted passage-ranks"
      data-testid="passage-ranks"
      data-lexical-rank={ranks.lexical ?? ''}
      data-dense-rank={ranks.dense ?? ''}
      data-rerank={ranks.rerank ?? ''}
      data-rerank-by={ranks.rerank === undefined ? '' : (ranks.rerankBy ?? 'cross-encoder')}
    >
      {rankSummary(ranks, ran)}
    </span>
  );
}
