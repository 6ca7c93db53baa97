// The async face of a VectorIndex, the same whether it runs in the index worker
// or in-process (tests, Node). The index is created on the first add, when the
// embedding dimension becomes known.
import { decodeVectors, type IndexKind, type VectorHit, type VectorIndex } from '../core/vector-index';

export interface IndexHandle {
  kind(): Promise<IndexKind>;
  add(ids: string[], vectors: Float32Array[]): Promise<void>;
  remove(ids: string[]): Promise<number>;
  search(query: Float32Array, k: number): Promise<VectorHit[]>;
  size(): Promise<number>;
  dim(): Promise<number | undefined>;
  clear(): Promise<void>;
  serialize(): Promise<Uint8Array>;
  /** Replaces the contents with a serialised index (any kind's bytes). */
  load(bytes: Uint8Array): Promise<void>;
  /** Releases a worker, if the index runs in one. */
  terminate?(): void;
}

export type IndexFactory = (kind: IndexKind, dim: number) => Promise<VectorIndex> | VectorIndex;

export class IndexHost implements IndexHandle {
  private index: VectorIndex | null = null;

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
}
