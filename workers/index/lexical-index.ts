// The lexical (BM25) index beside the vector index, on MiniSearch: measured against Orama
// in `npm run bench -- retrieval` (README), MiniSearch was faster to query and to build,
// its JSON snapshot smaller, and it removes a document by id alone (`discard`), so the
// library never keeps a second copy of every passage's text to un-index it.
import MiniSearch from 'minisearch';
import type { RankedHit } from '../../src/core/fusion';
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

const OPTIONS = {
  fields: ['text'],
  idField: 'id',
  tokenize: (text: string) => tokenize(text),
  // `tokenize` already lower-cases and drops function words.
  processTerm: (term: string) => term,
  searchOptions: { combineWith: 'OR' as const },
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

  /** The `limit` best passages by BM25, best first; an empty or all-stop-word query finds nothing. */
  search(query: string, limit: number): RankedHit[] {
    if (limit <= 0 || this.ms.documentCount === 0) return [];
    const results = this.ms.search(query);
    const out: RankedHit[] = [];
    for (let i = 0; i < results.length && i < limit; i++) out.push({ id: String(results[i]!.id), score: results[i]!.score });
    return out;
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
