// The recipe's Parquet at both ends: passages.parquet in (the columns the docs ask for, written
// as pyarrow would: UTF-8 strings, int32 index) and the Ray-written embeddings out, read with
// the index writer's own reader so the bench sees exactly what `npm run index` sees.
import { writeFileSync } from 'node:fs';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { parquetSource } from '../../scripts/sharded/parquet-source';
import type { CorpusPassage } from '../real/corpus';

const utf8 = (name: string) => ({
  name,
  type: 'BYTE_ARRAY' as const,
  converted_type: 'UTF8' as const,
  repetition_type: 'REQUIRED' as const,
});

/** passages.parquet: id, doc_id, title, text, index (one row per passage, already chunked). */
export function writePassagesParquet(path: string, passages: CorpusPassage[]): void {
  const columnData = [
    { name: 'id', data: passages.map((p) => p.id) },
    { name: 'doc_id', data: passages.map((p) => p.docId) },
    { name: 'title', data: passages.map((p) => p.title) },
    { name: 'text', data: passages.map((p) => p.text) },
    { name: 'index', data: passages.map((p) => p.index) },
  ];
  const schema = [
    { name: 'root', num_children: columnData.length },
    utf8('id'),
    utf8('doc_id'),
    utf8('title'),
    utf8('text'),
    { name: 'index', type: 'INT32' as const, repetition_type: 'REQUIRED' as const },
  ];
  writeFileSync(path, new Uint8Array(parquetWriteBuffer({ columnData, schema })));
}

export interface EmbeddedPassages {
  ids: string[];
  titles: string[];
  /** Position of each passage in its document (0-based), as the page shows it (plus one). */
  index: number[];
  dim: number;
  vectors: Float32Array[];
  /** Each passage's IVF list, where the job filed it (listed/ only). */
  lists: number[];
}

/** Every row of a folder of Ray's part files, in the writer's order. */
export async function readEmbedded(path: string, lists?: number): Promise<EmbeddedPassages> {
  const source = await parquetSource(path, lists ? { lists } : {});
  const out: EmbeddedPassages = { ids: [], titles: [], index: [], dim: 0, vectors: [], lists: [] };
  for await (const r of source.rows()) {
    out.ids.push(r.id);
    out.titles.push(r.title);
    out.index.push(r.index);
    out.vectors.push(r.embedding);
    if (r.list !== undefined) out.lists.push(r.list);
  }
  out.dim = out.vectors[0]?.length ?? 0;
  return out;
}
