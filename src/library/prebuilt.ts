// A pre-built library a static site ships in `index/`: `library.json` (documents,
// passages, model), `vectors.bin` (the VectorIndex binary format, rows keyed by
// passage id) and `version.json` (small, fetched on every visit to notice a
// rebuilt index). Written by `npm run index`, loaded by the library.
import type { Passage } from '../core/ports';
import { decodeVectors, encodeVectors } from '../vector/vector-index';
import type { ParsedDocument } from './parse';
import type { LexicalSnapshot } from './lexical/lexical-index';
import { SNAPSHOT_FORMAT } from './lexical/word-snapshot';

export const PREBUILT_DIR = 'index/';
export const PREBUILT_JSON = 'library.json';
export const PREBUILT_VECTORS = 'vectors.bin';
export const PREBUILT_VERSION = 'version.json';
/**
 * Optional: the word index, tokenised at build time, in its binary snapshot format (a site built
 * before it existed, or with the older `lexical.json`, still loads: its passages are tokenised in the browser).
 */
export const PREBUILT_LEXICAL = 'words.bin';
const FORMAT = 'selfrag-library';
const VERSION = 1;

/** The weights a model id names, wherever they come from (its `hub:`/`local:` prefix dropped). */
export const bareModel = (id: string): string => id.replace(/^(hub|local):/, '');

/** Model ids name the same weights whether they come from the hub or a local pack. */
export function sameModel(a: string, b: string): boolean {
  return bareModel(a) === bareModel(b);
}

export interface PrebuiltDocument extends ParsedDocument {
  id: string;
}

export interface PrebuiltManifest {
  format: typeof FORMAT;
  version: typeof VERSION;
  /** Embedding model id the vectors were made with (null if unknown). */
  model: string | null;
  dim: number;
  createdAt: string;
  documents: PrebuiltDocument[];
  passages: Passage[];
}

export interface PrebuiltLibrary {
  /** When the indexer wrote it; a different value on a later visit means the site shipped a new index. */
  createdAt: string;
  model: string | null;
  documents: PrebuiltDocument[];
  passages: Passage[];
  vectors: Map<string, Float32Array>;
  lexical?: LexicalSnapshot;
}

export function encodePrebuilt(input: {
  model: string | null;
  documents: PrebuiltDocument[];
  passages: Passage[];
  vectors: Float32Array[];
  createdAt?: string;
}): {
  json: string;
  vectors: Uint8Array;
  version: string;
} {
  const dim = input.vectors[0]?.length ?? 0;
  const data = new Float32Array(input.vectors.length * dim);
  input.vectors.forEach((v, i) => data.set(v, i * dim));
  const manifest: PrebuiltManifest = {
    format: FORMAT,
    version: VERSION,
    model: input.model,
    dim,
    createdAt: input.createdAt ?? new Date().toISOString(),
    documents: input.documents,
    passages: input.passages,
  };
  return {
    json: JSON.stringify(manifest),
    vectors: encodeVectors({ dim, ids: input.passages.map((p) => p.id), data }),
    version: JSON.stringify({
      createdAt: manifest.createdAt,
      model: manifest.model,
      documents: input.documents.length,
      passages: input.passages.length,
    }),
  };
}

export function decodePrebuilt(json: string, bytes: Uint8Array): PrebuiltLibrary {
  const m = JSON.parse(json) as Partial<PrebuiltManifest>;
  if (m.format !== FORMAT || m.version !== VERSION)
    throw new Error(`pre-built index: not a ${FORMAT} v${VERSION} file`);
  if (!Array.isArray(m.documents) || !Array.isArray(m.passages))
    throw new Error('pre-built index: documents or passages missing');
  const { dim, ids, data } = decodeVectors(bytes);
  if (m.dim !== undefined && m.dim !== dim && ids.length)
    throw new Error(`pre-built index: library.json says ${m.dim} dimensions, vectors.bin has ${dim}`);
  const vectors = new Map<string, Float32Array>();
  ids.forEach((id, i) => vectors.set(id, data.subarray(i * dim, (i + 1) * dim)));
  return {
    createdAt: m.createdAt ?? '',
    model: m.model ?? null,
    documents: m.documents,
    passages: m.passages,
    vectors,
  };
}

/** Null when the site ships no pre-built index (404); an error when it ships a broken one. */
export async function loadPrebuilt(dirUrl: string, fetchFn: typeof fetch): Promise<PrebuiltLibrary | null> {
  const dir = dirUrl.endsWith('/') ? dirUrl : `${dirUrl}/`;
  const json = await fetchFn(new URL(PREBUILT_JSON, dir).href).catch(() => null);
  if (!json?.ok) return null;
  const text = await json.text();
  // Dev servers answer unknown paths with index.html: that is "no index", not a broken one.
  if (!text.trimStart().startsWith('{')) return null;
  const bin = await fetchFn(new URL(PREBUILT_VECTORS, dir).href);
  if (!bin.ok)
    throw new Error(`pre-built index: ${PREBUILT_JSON} found but ${PREBUILT_VECTORS} is missing (${bin.status})`);
  const lib = decodePrebuilt(text, new Uint8Array(await bin.arrayBuffer()));
  const lexical = await fetchLexical(new URL(PREBUILT_LEXICAL, dir).href, fetchFn);
  return lexical ? { ...lib, lexical } : lib;
}

/** The word index is an optimisation: absent or unreadable, the library tokenises the passages itself. */
async function fetchLexical(url: string, fetchFn: typeof fetch): Promise<LexicalSnapshot | undefined> {
  const res = await fetchFn(url).catch(() => null);
  if (!res?.ok) return undefined;
  try {
    return { format: SNAPSHOT_FORMAT, bytes: new Uint8Array(await res.arrayBuffer()) };
  } catch {
    return undefined;
  }
}

/** The `createdAt` of the index the site ships now, or null when it ships none. */
export async function fetchPrebuiltVersion(dirUrl: string, fetchFn: typeof fetch): Promise<string | null> {
  const dir = dirUrl.endsWith('/') ? dirUrl : `${dirUrl}/`;
  const res = await fetchFn(new URL(PREBUILT_VERSION, dir).href).catch(() => null);
  if (!res?.ok) return null;
  try {
    const v = (await res.json()) as { createdAt?: unknown };
    return typeof v.createdAt === 'string' ? v.createdAt : null;
  } catch {
    return null;
  }
}
