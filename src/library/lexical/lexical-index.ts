// The lexical (BM25) index beside the vector index, on MiniSearch: measured against Orama
// in `npm run bench -- retrieval` (README), MiniSearch answered queries two orders of magnitude
// faster, its JSON snapshot was 6× smaller (build times were close, either way across runs),
// and it removes a document by id alone (`discard`), so the library never keeps a second copy
// of every passage's text to un-index it.
import MiniSearch from 'minisearch';
import type { RankedHit } from '../../core/fusion';
import { TOKENIZER_VERSION, tokenize } from './tokenize';

export interface LexicalDoc {
  id: string;
  /** What is searched: the passage's title and text, like the embedding text. */
  text: string;
}

/** The persisted form: the tokenizer version it was built with, and MiniSearch's own JSON. */
export interface LexicalSnapshot {
  format: 'minisearch-7';
  tokenizer: number;
  json: string;
}

const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
/** Passages scored per question at most (beyond the rarest term); see `search`. */
export const POSTINGS_BUDGET = 2000;

const OPTIONS = {
  fields: ['text'],
  idField: 'id',
  tokenize: (text: string) => tokenize(text),
  // `tokenize` already lower-cases and drops function words.
  processTerm: (term: string) => term,
  searchOptions: { combineWith: 'OR' as const, bm25: BM25 },
};

export class LexicalIndex {
  private ms = new MiniSearch<LexicalDoc>(OPTIONS);
  /** Changed since the last snapshot or load, so callers persist only when needed. */
  private dirty = false;
  /** The indexed ids (MiniSearch keeps its own map private). */
  private readonly idSet = new Set<string>();

  static fromSnapshot(s: LexicalSnapshot): LexicalIndex | null {
    if (s.format !== 'minisearch-7' || s.tokenizer !== TOKENIZER_VERSION) return null;
    const index = new LexicalIndex();
    const plain = JSON.parse(s.json) as Parameters<typeof MiniSearch.loadJS>[0];
    index.ms = MiniSearch.loadJS<LexicalDoc>(plain, OPTIONS);
    for (const id of Object.values(plain.documentIds)) index.idSet.add(String(id));
    return index;
  }

  size(): number {
    return this.ms.documentCount;
  }

  has(id: string): boolean {
    return this.idSet.has(id);
  }

  /**
   * Indexes passages not yet indexed. Passage ids are content-addressed (`doc-<hash>#n`),
   * so an id already present already holds this exact text and is not tokenised again.
   */
  add(docs: readonly LexicalDoc[]): number {
    const seen = new Set<string>();
    const fresh = docs.filter((d) => !this.idSet.has(d.id) && !seen.has(d.id) && seen.add(d.id));
    if (fresh.length === 0) return 0;
    this.ms.addAll(fresh);
    for (const d of fresh) this.idSet.add(d.id);
    this.dirty = true;
    return fresh.length;
  }

  remove(ids: readonly string[]): number {
    const present = ids.filter((id) => this.idSet.has(id));
    if (present.length) {
      this.ms.discardAll(present);
      for (const id of present) this.idSet.delete(id);
      this.dirty = true;
    }
    return present.length;
  }

  /** Keeps only the given ids (drops what the library no longer holds); returns how many went. */
  retain(ids: ReadonlySet<string>): number {
    const gone: string[] = [];
    for (const id of this.idSet) if (!ids.has(id)) gone.push(id);
    return this.remove(gone);
  }

  /** The ids in `ids` that are not indexed. */
  missing(ids: readonly string[]): string[] {
    return ids.filter((id) => !this.idSet.has(id));
  }

  clear(): void {
    if (this.ms.documentCount > 0) this.dirty = true;
    this.ms.removeAll();
    this.idSet.clear();
  }

  /**
   * The `limit` best passages by BM25, best first; an empty or all-stop-word query finds nothing.
   * MiniSearch scores every passage holding any query term, so the cost is the sum of the terms'
   * document frequencies. The rarest terms (the ones that carry the weight: IDF ~9 for a rare
   * name, ~1.4 for a word in a quarter of the library) are kept until POSTINGS_BUDGET passages;
   * the commonest beyond it are left out, and so is any word in over a quarter of the library
   * when a rarer one remains. Bounded latency at 100k passages, identical results on short
   * libraries and rare-term questions.
   */
  search(query: string, limit: number): RankedHit[] {
    if (limit <= 0 || this.ms.documentCount === 0) return [];
    const terms = [...new Set(tokenize(query))];
    if (terms.length === 0) return [];
    // Rarest first; keep terms while the passages to score stay within the budget (the rarest always).
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
    const ideal = this.idealScore(terms);
    const out: RankedHit[] = [];
    for (let i = 0; i < results.length && i < limit; i++) out.push({ id: String(results[i]!.id), score: Math.min(1, results[i]!.score / ideal) });
    return out;
  }

  /**
   * What a passage of average length holding every query term once would score (MiniSearch's
   * BM25+ with its default k = 1.2, b = 0.7, d = 0.5). Dividing by it puts BM25 on a scale that
   * means the same for every question: near 1 when the passage holds the question's rare terms,
   * near 0 when it shares only a common word, even if that is the best the library has.
   */
  private idealScore(terms: readonly string[]): number {
    const n = this.ms.documentCount;
    let ideal = 0;
    for (const t of terms) {
      const df = this.documentFrequency(t);
      ideal += Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (BM25.d + 1);
    }
    return ideal > 0 ? ideal : 1;
  }

  /** Passages holding the term; read from MiniSearch's term tree (version pinned, checked by a unit test). */
  documentFrequency(term: string): number {
    const tree = (this.ms as unknown as { _index?: { get(t: string): Map<number, Map<number, number>> | undefined } })._index;
    let df = 0;
    for (const docs of tree?.get(term)?.values() ?? []) df = Math.max(df, docs.size);
    return df;
  }

  isDirty(): boolean {
    return this.dirty;
  }

  /** Cleans removed documents out first, so a reloaded snapshot scores exactly like a fresh build. */
  async snapshot(): Promise<LexicalSnapshot> {
    if (this.ms.dirtCount > 0) await this.ms.vacuum({ batchWait: 0 });
    this.dirty = false;
    return { format: 'minisearch-7', tokenizer: TOKENIZER_VERSION, json: JSON.stringify(this.ms) };
  }
}
