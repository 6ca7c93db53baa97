// The async face of the library's two indexes, the same whether they run in the index
// worker or in-process (tests, Node): the vector index and, beside it, the lexical (BM25)
// index. The vector index is created on the first add, when the embedding dimension
// becomes known; the lexical one always exists.
// 'auto' (the default) serves with the exact flat index while the library is small and moves
// it into the compact index once it holds AUTO_COMPACT_AT passages: in the worker, a batch at a
// time from the flat index's own rows (nothing re-embedded), the flat index answering meanwhile.
// A compact index with a library name is saved in files (compact-persistence.ts) and re-opened
// from them at start-up, without the float vectors.
import { DEFAULT_FUSION, fuse, single, type FusedHit, type FusionMethod, type SearchMode } from '../core/fusion';
import { CompactStateError } from '../vector/compact-journal';
import {
  decodeVectors,
  normalise,
  type IndexChoice,
  type IndexKind,
  type VectorHit,
  type VectorIndex,
} from '../vector/vector-index';
import type { CompactPersistence } from './compact-persistence';
import {
  LexicalIndex,
  type LexicalDoc,
  type LexicalSnapshot,
  type StoredLexicalSnapshot,
} from './lexical/lexical-index';
import { errorMessage } from '../core/errors';

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

/**
 * Passages at which 'auto' leaves exact search for the compact index. At 384-d the flat index
 * then holds 316 MB of float32 in the tab and a query scans all of it; the compact index holds
 * about 19 MB, answers faster and finds 0.99 of the same top 10 (bench/scale.bench.ts, docs/benchmarks.md).
 */
export const AUTO_COMPACT_AT = 200_000;

/** Which vector index serves, and why, for the status panel. */
export interface VectorStatus {
  kind: IndexKind;
  choice: IndexChoice;
  reason: string;
  /** 'auto' is moving a grown library into the compact index (the flat one serves meanwhile). */
  switching: boolean;
  /** The compact index is saved in files and re-opens without the float vectors. */
  saved: boolean;
}

export interface VectorOpenRequest {
  /** The library's name (its database): where its compact index is saved; null for a library in memory. */
  name: string | null;
  /** The embedding model of the stored vectors: a saved index made with another is not used. */
  stamp: string;
  /** Passages with vectors the library holds (for 'auto'). */
  expected: number;
}

export interface VectorOpen {
  /** The passages a saved index came back with (the library reconciles them with its documents); null: nothing came back, load every vector. */
  ids: string[] | null;
  /** A saved index that could not be used (it is rebuilt from the stored vectors). */
  warning?: string;
}

export interface IndexHandle {
  /** The vector index serving now. */
  kind(): Promise<IndexKind>;
  /** Chooses the vector index for a library opening, and re-opens its saved compact index if it has one. Call on an empty index. */
  openVectors(req: VectorOpenRequest): Promise<VectorOpen>;
  /** The library is about to hold `total` passages (a pre-built index being seeded): 'auto' switches before, not after. */
  expect(total: number): Promise<void>;
  vectorStatus(): Promise<VectorStatus>;
  add(ids: string[], vectors: Float32Array[]): Promise<void>;
  /** Removes from both indexes. */
  remove(ids: string[]): Promise<number>;
  /**
   * A document's passages replaced in one turn of the index's thread: `oldIds` out of both indexes,
   * `ids` with their vectors (none: found by words only) and texts in, so no search made meanwhile
   * sees the document missing (a re-embed puts a document back with the same passages). Returns how
   * many passages the word index tokenised (one it holds already keeps its entry: ids are content-addressed).
   */
  replace(oldIds: string[], ids: string[], vectors: Float32Array[], texts: LexicalDoc[]): Promise<number>;
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

export interface IndexHostOptions {
  /** Where compact indexes are saved (OPFS in the worker); without it they live in memory. */
  persistence?: CompactPersistence;
  /** Passages at which 'auto' switches to compact (tests use a small one). */
  compactAt?: number;
}

/** Rows moved per turn when 'auto' switches, so searches and adds get their turn in between. */
const SWITCH_BATCH = 8192;

type Movable = VectorIndex & { idList(): readonly string[]; vector(id: string): Float32Array | undefined };
const movable = (i: VectorIndex | null): i is Movable => !!i && 'idList' in i && 'vector' in i;

const NAMES: Record<IndexKind, string> = {
  flat: 'flat exact search',
  voy: 'voy k-d tree (WASM)',
  compact: 'compact 1-bit codes with int8 rescoring',
};

export class IndexHost implements IndexHandle {
  private index: VectorIndex | null = null;
  private lexical = new LexicalIndex();
  /** The kind serving (or to be made on the first add). */
  private current: IndexKind;
  private readonly compactAt: number;
  private name: string | null = null;
  private stamp = '';
  /** The compact index being filled while 'auto' switches; null otherwise. */
  private next: VectorIndex | null = null;
  private switching: Promise<void> | null = null;
  private notes: string[] = [];

  constructor(
    private readonly selected: IndexChoice,
    private readonly make: IndexFactory,
    private readonly opts: IndexHostOptions = {},
  ) {
    this.current = selected === 'auto' ? 'flat' : selected;
    this.compactAt = opts.compactAt ?? AUTO_COMPACT_AT;
  }

  async kind(): Promise<IndexKind> {
    return this.current;
  }

  async openVectors(req: VectorOpenRequest): Promise<VectorOpen> {
    this.name = req.name;
    this.stamp = req.stamp;
    this.notes = [];
    const saved = this.opts.persistence;
    if (this.selected === 'flat' || this.selected === 'voy') {
      // Chosen by hand: the files a compact index left are disk the library no longer uses.
      if (saved && req.name) await saved.discard(req.name).catch(() => undefined);
      return { ids: null };
    }
    this.current = this.selected === 'compact' || req.expected >= this.compactAt ? 'compact' : 'flat';
    if (!saved || !req.name) return { ids: null };
    try {
      const index = await saved.open(req.name, req.stamp);
      if (!index) return { ids: null };
      // Once compact, a library stays compact (switching back would need every float again).
      this.index = index;
      this.current = 'compact';
      this.notes.push('re-opened from its saved files without reading the float vectors');
      return { ids: [...index.idList()] };
    } catch (e) {
      if (!(e instanceof CompactStateError)) throw e;
      if (this.current === 'compact') this.notes.push('rebuilt from the stored vectors');
      return e.stale
        ? { ids: null }
        : {
            ids: null,
            warning: `The saved vector index could not be used (${e.message}): it is rebuilt once from the stored vectors, which takes a while for a large library.`,
          };
    }
  }

  async expect(total: number): Promise<void> {
    if (this.selected !== 'auto' || this.current !== 'flat' || total < this.compactAt) return;
    if (!this.index || this.index.size() === 0) {
      this.index = null;
      this.current = 'compact';
    } else this.startSwitch();
  }

  async vectorStatus(): Promise<VectorStatus> {
    const n = this.index?.size() ?? 0;
    const kind = this.current;
    const saved = !!(this.index && 'saved' in this.index && this.index.saved);
    let reason: string;
    if (this.selected !== 'auto') reason = `${NAMES[kind]} (chosen in Advanced)`;
    else if (this.switching)
      reason = `${NAMES.flat} while the library (${n.toLocaleString('en')} passages) moves to compact codes`;
    else if (kind === 'flat')
      reason = `${NAMES.flat}: ${n.toLocaleString('en')} passage${n === 1 ? '' : 's'}, below the ${this.compactAt.toLocaleString('en')} at which it switches to compact codes`;
    else
      reason = `${NAMES.compact}: the library passed ${this.compactAt.toLocaleString('en')} passages, where exact search would hold ${Math.round((Math.max(n, this.compactAt) * (this.index?.dim ?? 384) * 4) / 1e6)} MB of float32 in the tab`;
    const notes = [...this.notes];
    if (kind === 'compact' && this.index && !saved) notes.push('kept in memory for this visit');
    return { kind, choice: this.selected, reason: [reason, ...notes].join('; '), switching: !!this.switching, saved };
  }

  /** Resolves when an 'auto' switch under way is over (tests, bench). */
  async switched(): Promise<void> {
    await this.switching;
  }

  private async makeKind(kind: IndexKind, dim: number): Promise<VectorIndex> {
    if (kind === 'compact' && this.name && this.opts.persistence) {
      const saved = await this.opts.persistence.create(this.name, this.stamp, dim).catch(() => null);
      if (saved) return saved;
    }
    return this.make(kind, dim);
  }

  private async ensure(dim: number): Promise<VectorIndex> {
    if (this.index && this.index.dim !== dim) {
      if (this.index.size() > 0)
        throw new Error(
          `vectors have ${dim} dimensions but the index holds ${this.index.dim}-d vectors (was the embedding model changed?)`,
        );
      this.index = null;
    }
    this.index ??= await this.makeKind(this.current, dim);
    return this.index;
  }

  async add(ids: string[], vectors: Float32Array[]): Promise<void> {
    const first = vectors[0];
    if (!first) return;
    const index = await this.ensure(first.length);
    index.add(ids, vectors);
    this.next?.add(ids, vectors);
    if (this.selected === 'auto' && this.current === 'flat' && index.size() >= this.compactAt) this.startSwitch();
  }

  /** Moves the flat index's rows into a new compact index, a batch per turn; the flat one serves until it is done. */
  private startSwitch(): void {
    const flat = this.index;
    if (this.switching || !movable(flat)) return;
    this.switching = (async () => {
      try {
        const next = await this.makeKind('compact', flat.dim);
        this.next = next;
        const ids = [...flat.idList()];
        for (let i = 0; i < ids.length; i += SWITCH_BATCH) {
          // Removed meanwhile: gone from the flat index. Added again meanwhile: already in `next`, newer.
          const batch = ids.slice(i, i + SWITCH_BATCH).filter((id) => flat.has(id) && !next.has(id));
          if (batch.length > 0)
            next.add(
              batch,
              batch.map((id) => flat.vector(id)!),
            );
          await new Promise((r) => setTimeout(r, 0));
          if (this.next !== next) return;
        }
        this.index = next;
        this.current = 'compact';
      } catch (e) {
        this.notes.push(`could not switch to compact codes: ${errorMessage(e)}`);
      } finally {
        this.next = null;
        this.switching = null;
      }
    })();
  }

  async replace(oldIds: string[], ids: string[], vectors: Float32Array[], texts: LexicalDoc[]): Promise<number> {
    const first = vectors[0];
    // The one wait (a vector index created on first use) comes before anything is taken out.
    const index = first ? await this.ensure(first.length) : this.index;
    const kept = new Set(ids);
    this.lexical.remove(oldIds.filter((id) => !kept.has(id)));
    this.next?.remove(oldIds);
    this.index?.remove(oldIds);
    if (first && index) {
      index.add(ids, vectors);
      this.next?.add(ids, vectors);
    }
    const tokenised = this.lexical.add(texts);
    if (first && index && this.selected === 'auto' && this.current === 'flat' && index.size() >= this.compactAt)
      this.startSwitch();
    return tokenised;
  }

  async remove(ids: string[]): Promise<number> {
    this.lexical.remove(ids);
    this.next?.remove(ids);
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
    // A switch under way stops; the next one starts from what is added from now on.
    this.next = null;
    this.lexical.clear();
  }

  async serialize(): Promise<Uint8Array> {
    if (!this.index) throw new Error('the index is empty: nothing to serialise');
    return this.index.serialize();
  }

  async load(bytes: Uint8Array): Promise<void> {
    const { dim, ids, data } = decodeVectors(bytes);
    if (this.selected === 'auto') this.current = ids.length >= this.compactAt ? 'compact' : 'flat';
    const fresh = await this.makeKind(this.current, dim);
    fresh.add(
      ids,
      ids.map((_, i) => data.subarray(i * dim, (i + 1) * dim)),
    );
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
export function hybridSearch(
  req: HybridRequest,
  dense: Pick<VectorIndex, 'search' | 'cosine'> | null,
  lexical: Pick<LexicalIndex, 'search'>,
): FusedHit[] {
  const { mode, limit } = req;
  if (limit <= 0) return [];
  if (mode === 'words') return single(lexical.search(req.text, limit), 'lexical', limit);
  if (!req.vector) throw new Error(`search mode '${mode}' needs the question's embedding`);
  if (mode === 'meaning') return single(dense?.search(req.vector, limit) ?? [], 'dense', limit);
  const depth = Math.max(limit, FUSION_DEPTH);
  const q = normalise(req.vector, req.vector.length);
  const denseScoreOf = (id: string) => dense?.cosine(q, id);
  return fuse(lexical.search(req.text, depth), dense?.search(q, depth) ?? [], {
    limit,
    method: req.fusion ?? DEFAULT_FUSION,
    denseScoreOf,
  });
}
