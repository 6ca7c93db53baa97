// The word index as it was before issue 22: MiniSearch 7 with the same tokenizer, BM25+
// parameters, rarest-terms budget and ideal-score normalisation. Kept as the oracle that
// LexicalIndex must agree with (unit tests) and as the baseline of `npm run bench -- scale`.
// Not part of the product.
import MiniSearch from 'minisearch';
import type { RankedHit } from '../../src/core/fusion';
import { POSTINGS_BUDGET, type LexicalDoc } from '../../src/library/lexical/lexical-index';
import { tokenize } from '../../src/library/lexical/tokenize';

const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const OPTIONS = {
  fields: ['text'],
  idField: 'id',
  tokenize: (text: string) => tokenize(text),
  processTerm: (term: string) => term,
  searchOptions: { combineWith: 'OR' as const, bm25: BM25 },
  // Removals are vacuumed explicitly (see `remove`), so document frequencies are those of a fresh build.
  autoVacuum: false as const,
};

export class MiniSearchLexical {
  ms = new MiniSearch<LexicalDoc>(OPTIONS);

  size(): number {
    return this.ms.documentCount;
  }

  add(docs: readonly LexicalDoc[]): void {
    this.ms.addAll(docs.filter((d) => !this.ms.has(d.id)));
  }

  /** Discards and vacuums, so what is left scores like a fresh build of it. */
  async remove(ids: readonly string[]): Promise<void> {
    this.ms.discardAll([...new Set(ids)].filter((id) => this.ms.has(id)));
    await this.ms.vacuum({ batchWait: 0 });
  }

  search(query: string, limit: number): RankedHit[] {
    if (limit <= 0 || this.ms.documentCount === 0) return [];
    const terms = [...new Set(tokenize(query))];
    if (terms.length === 0) return [];
    const byDf = terms.map((t) => ({ t, df: this.documentFrequency(t) })).sort((a, b) => a.df - b.df);
    const common = this.ms.documentCount / 4;
    const kept: string[] = [];
    let postings = 0;
    for (const { t, df } of byDf) {
      if (kept.length > 0 && (df > common || postings + df > POSTINGS_BUDGET)) break;
      kept.push(t);
      postings += df;
    }
    const results = this.ms.search(kept.join(' '), { tokenize: (q) => q.split(' ') });
    const n = this.ms.documentCount;
    let ideal = 0;
    for (const t of terms) {
      const df = this.documentFrequency(t);
      ideal += Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (BM25.d + 1);
    }
    if (!(ideal > 0)) ideal = 1;
    const out: RankedHit[] = [];
    for (let i = 0; i < results.length && i < limit; i++)
      out.push({ id: String(results[i]!.id), score: results[i]!.score / ideal });
    return out;
  }

  documentFrequency(term: string): number {
    const tree = (this.ms as unknown as { _index?: { get(t: string): Map<number, Map<number, number>> | undefined } })
      ._index;
    let df = 0;
    for (const docs of tree?.get(term)?.values() ?? []) df = Math.max(df, docs.size);
    return df;
  }

  snapshotJson(): string {
    return JSON.stringify(this.ms);
  }
}
