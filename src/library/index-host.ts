// The async face of the library's two indexes, the same whether they run in the index
// worker or in-process (tests, Node): the vector index and, beside it, the lexical (BM25)
// index. The vector index is created on the first add, when the embedding dimension
// becomes known; the lexical one always exists.
import { DEFAULT_FUSION, fuse, single, type FusedHit, type FusionMethod, type SearchMode } from '../core/fusion';
import { decodeVectors, normalise, type IndexKind, type VectorHit, type VectorIndex } from '../core/vector-index';
import { LexicalIndex, type LexicalDoc, type LexicalSnapshot, type StoredLexicalSnapshot } from './lexical/lexical-index';


/** One search of the hybrid retriever: either list or both, fused in the worker (one round trip). */
export interface HybridRequest {
  /** The question's unit embedding; null in 'words' mode, where nothing is embedded. */
  vector: Float32Array | null;
  /** The question's text, for BM25. */
  text: string;
  mode: SearchMode;
  /** How many fused candidates to return. */
  limit: number;
  fusion?: FusionMethod;
}

/** Each list is read this deep before fusing, so a passage ranked low in one list can still be lifted by the other. */
export const FUSION_DEPTH = 50;

export interface IndexHandle {
  kind(): Promise<IndexKind>;
  add(ids: string[], vectors: Float32Array[]): Promise<void>;
  /** Removes from both indexes. */
  remove(ids: string[]): Promise<number>;
  search(query: Float32Array, k: number): Promise<VectorHit[]>;
  size(): Promise<number>;
  dim(): Promise<number | undefined>;
  /** Empties both indexes. */
  clear(): Promise<void>;
  serialize(): Promise<Uint8Array>;
  /** Replaces the contents with a serialised index (any kind's bytes). */
  load(bytes: Uint8Array): Promise<void>;
  /** Adds passages to the lexical index (ids already there are skipped: ids are content-addressed). */
  addText(docs: LexicalDoc[]): Promise<number>;
  hybrid(req: HybridRequest): Promise<FusedHit[]>;
  /** The lexical index to persist, or null when nothing changed since the last snapshot or load. */
  lexicalSnapshot(): Promise<LexicalSnapshot | null>;
  /**
   * Replaces the lexical index with a snapshot; false (and left empty) when the snapshot is from
   * another tokenizer or format; rejects, naming the damage, (and left empty) when its bytes are damaged.
   */
  loadLexical(s: StoredLexicalSnapshot): Promise<boolean>;
  /** Brings the lexical index in line with the library: drops ids not in `ids`, returns the ids it lacks. */
  reconcileLexical(ids: string[]): Promise<string[]>;
  lexicalSize(): Promise<number>;
  /** Releases a worker, if the index runs in one. */
  terminate?(): void;
}

export type IndexFactory = (kind: IndexKind, dim: number) => Promise<VectorIndex> | VectorIndex;

export class IndexHost implements IndexHandle {
  private index: VectorIndex | null = null;
  private lexical = new LexicalIndex();

  constructor(
    private readonly selected: IndexKind,
    private readonly make: IndexFactory,
  ) {}

  async kind(): Promise<IndexKind> {
    return this.selected;
  }

  private async ensure(dim: number): Promise<VectorIndex> {
    if (this.index && this.index.dim !== dim) {
      if (this.index.size() > 0) throw new Error(`vectors have ${dim} dimensions but the index holds ${this.index.dim}-d vectors (was the embedding model changed?)`);
      this.index = null;
    }
    this.index ??= await this.make(this.selected, dim);
    return this.index;
  }

  async add(ids: string[], vectors: Float32Array[]): Promise<void> {
    const first = vectors[0];
    if (!first) return;
    (await this.ensure(first.length)).add(ids, vectors);
  }

  async remove(ids: string[]): Promise<number> {
    this.lexical.remove(ids);
    return this.index?.remove(ids) ?? 0;
  }

  async search(query: Float32Array, k: number): Promise<VectorHit[]> {
    return this.index?.search(query, k) ?? [];
  }

  async size(): Promise<number> {
    return this.index?.size() ?? 0;
  }

  async dim(): Promise<number | undefined> {
    return this.index?.dim;
  }

  async clear(): Promise<void> {
    this.index?.clear();
    this.lexical.clear();
  }

  async serialize(): Promise<Uint8Array> {
    if (!this.index) throw new Error('the index is empty: nothing to serialise');
    return this.index.serialize();
  }

  async load(bytes: Uint8Array): Promise<void> {
    const { dim, ids, data } = decodeVectors(bytes);
    const fresh = await this.make(this.selected, dim);
    fresh.add(ids, ids.map((_, i) => data.subarray(i * dim, (i + 1) * dim)));
    this.index = fresh;
  }

  async addText(docs: LexicalDoc[]): Promise<number> {
    return this.lexical.add(docs);
  }

  async hybrid(req: HybridRequest): Promise<FusedHit[]> {
    return hybridSearch(req, this.index, this.lexical);
  }

  async lexicalSnapshot(): Promise<LexicalSnapshot | null> {
    return this.lexical.isDirty() ? this.lexical.snapshot() : null;
  }

  async loadLexical(s: StoredLexicalSnapshot): Promise<boolean> {
    this.lexical = new LexicalIndex();
    const loaded = LexicalIndex.fromSnapshot(s);
    if (loaded) this.lexical = loaded;
    return loaded !== null;
  }

  async reconcileLexical(ids: string[]): Promise<string[]> {
    this.lexical.retain(ids);
    return this.lexical.missing(ids);
  }

  async lexicalSize(): Promise<number> {
    return this.lexical.size();
  }
}

/** Both searches (or one) and their fusion; shared by the host and the bench. */
export function hybridSearch(req: HybridRequest, dense: Pick<VectorIndex, 'search' | 'cosine'> | null, lexical: Pick<LexicalIndex, 'search'>): FusedHit[] {
  const { mode, limit } = req;
  if (limit <= 0) return [];
  if (mode === 'words') return single(lexical.search(req.text, limit), 'lexical', limit);
  if (!req.vector) throw new Error(`search mode '${mode}' needs the question's embedding`);
  if (mode === 'meaning') return single(dense?.search(req.vector, limit) ?? [], 'dense', limit);
  const depth = Math.max(limit, FUSION_DEPTH);
  const q = normalise(req.vector, req.vector.length);
  const denseScoreOf = (id: string) => dense?.cosine(q, id);
  return fuse(lexical.search(req.text, depth), dense?.search(q, depth) ?? [], { limit, method: req.fusion ?? DEFAULT_FUSION, denseScoreOf });
}
