// VectorIndex on voy-search (an exact k-d tree in WASM). voy returns ids only,
// so scores come from our own unit vectors, which are also what gets persisted:
// voy's JSON serialisation is about 8 KB per 384-d vector (DESIGN.md).
import * as glue from 'voy-search/voy_search_bg.js';
import type { Voy } from 'voy-search';
import { FlatIndex } from '../../src/vector/flat-index';
import { decodeVectors, normalise, type VectorHit, type VectorIndex } from '../../src/vector/vector-index';
import { errorMessage } from '../../src/core/errors';

let loaded: Promise<void> | null = null;

/**
 * Instantiates voy's wasm once per realm from its bytes (Node: read from
 * node_modules; browser/worker: fetched from a bundled URL). Manual
 * instantiation works the same everywhere, without ESM-wasm integration.
 */
export function loadVoy(wasm: () => Promise<BufferSource>): Promise<void> {
  loaded ??= (async () => {
    const { instance } = await WebAssembly.instantiate(await wasm(), {
      './voy_search_bg.js': glue as unknown as WebAssembly.ModuleImports,
    });
    glue.__wbg_set_wasm(instance.exports);
  })().catch((e: unknown) => {
    loaded = null;
    throw new Error(`could not load the voy-search wasm: ${errorMessage(e)}`);
  });
  return loaded;
}

// voy pads or silently truncates to 768 dimensions.
const VOY_MAX_DIM = 768;

export class VoyIndex implements VectorIndex {
  readonly kind = 'voy' as const;
  private readonly vectors: FlatIndex;
  private voy: Voy;

  /** Call `loadVoy` first. */
  constructor(readonly dim: number) {
    if (dim > VOY_MAX_DIM) throw new Error(`voy-search supports at most ${VOY_MAX_DIM} dimensions, got ${dim}`);
    this.vectors = new FlatIndex(dim);
    this.voy = new glue.Voy();
  }

  static deserialize(bytes: Uint8Array): VoyIndex {
    const { dim, ids, data } = decodeVectors(bytes);
    const index = new VoyIndex(dim);
    index.add(
      ids,
      ids.map((_, i) => data.subarray(i * dim, (i + 1) * dim)),
    );
    return index;
  }

  size(): number {
    return this.vectors.size();
  }

  has(id: string): boolean {
    return this.vectors.has(id);
  }

  add(ids: readonly string[], vectors: readonly Float32Array[]): void {
    if (ids.length !== vectors.length) throw new Error(`${ids.length} ids but ${vectors.length} vectors`);
    const unit = vectors.map((v) => normalise(v, this.dim));
    const replaced = ids.filter((id) => this.vectors.has(id));
    if (replaced.length) this.remove(replaced);
    this.vectors.add(ids, unit);
    this.voy.add({ embeddings: ids.map((id, i) => ({ id, title: '', url: '', embeddings: Array.from(unit[i]!) })) });
  }

  remove(ids: readonly string[]): number {
    const present = ids.filter((id) => this.vectors.has(id));
    if (!present.length) return 0;
    this.vectors.remove(present);
    // voy's remove matches whole resources; rebuilding from our vectors is simpler and always correct.
    this.rebuild();
    return present.length;
  }

  clear(): void {
    this.vectors.clear();
    this.voy.clear();
  }

  search(query: Float32Array, k: number): VectorHit[] {
    const n = this.size();
    if (n === 0 || k <= 0) return [];
    const q = normalise(query, this.dim);
    const { neighbors } = this.voy.search(q, Math.min(k, n));
    const hits: VectorHit[] = [];
    for (const { id } of neighbors) {
      const v = this.vectors.vector(id);
      if (!v) continue;
      let s = 0;
      for (let j = 0; j < this.dim; j++) s += v[j]! * q[j]!;
      hits.push({ id, score: s });
    }
    return hits.sort((a, b) => b.score - a.score);
  }

  serialize(): Uint8Array {
    return this.vectors.serialize();
  }

  cosine(query: Float32Array, id: string): number | undefined {
    return this.vectors.cosine(query, id);
  }

  private rebuild(): void {
    this.voy.free();
    this.voy = new glue.Voy();
    const bytes = this.vectors.serialize();
    const { ids, data } = decodeVectors(bytes);
    if (ids.length) {
      this.voy.index({
        embeddings: ids.map((id, i) => ({
          id,
          title: '',
          url: '',
          embeddings: Array.from(data.subarray(i * this.dim, (i + 1) * this.dim)),
        })),
      });
    }
  }
}
