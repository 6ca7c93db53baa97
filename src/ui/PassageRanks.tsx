// Where hybrid retrieval found a passage: its rank among the word (BM25) hits, among the
// meaning (embedding) hits, and the cross-encoder's re-rank score. "–" means that list
// did not find it (or that stage did not run).
import type { PassageRanks as Ranks } from '../core/ports';

const rank = (r: number | undefined) => (r === undefined ? '–' : `#${r}`);

export function rankSummary(r: Ranks): string {
  return `words ${rank(r.lexical)} · meaning ${rank(r.dense)} · re-rank ${r.rerank === undefined ? '–' : r.rerank.toFixed(2)}`;
}

export function PassageRanks({ ranks }: { ranks: Ranks | undefined }) {
  if (!ranks) return <span className="muted">–</span>;
  return (
    <span
      className="muted passage-ranks"
      data-testid="passage-ranks"
      data-lexical-rank={ranks.lexical ?? ''}
      data-dense-rank={ranks.dense ?? ''}
      data-rerank={ranks.rerank ?? ''}
    >
      {rankSummary(ranks)}
    </span>
  );
}
