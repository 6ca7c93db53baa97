// Precomputed embeddings as Parquet (what Spark, Ray Data and Dask write), read one row
// group at a time so memory is bounded by the largest row group, not the file.
// Columns: `id` (or `passage_id`), `title`, `text`, `embedding` (list of floats), and
// optionally `doc_id` (default: the title) and `index` (position in the document).
// A folder is read as its `*.parquet` part files in name order (what Spark and Ray Data write).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import type { ShardedRow, ShardedSource } from './write-sharded';

const REQUIRED = ['title', 'text', 'embedding'] as const;

export async function parquetSource(path: string): Promise<ShardedSource & { rowCount: number }> {
  if (!statSync(path).isDirectory()) return parquetFile(path);
  const parts = readdirSync(path).filter((f) => f.endsWith('.parquet')).sort();
  if (!parts.length) throw new Error(`${path} holds no .parquet files`);
  const sources = await Promise.all(parts.map((f) => parquetFile(join(path, f))));
  return {
    rowCount: sources.reduce((s, x) => s + x.rowCount, 0),
    async *rows() {
      for (const s of sources) yield* s.rows();
    },
  };
}

async function parquetFile(path: string): Promise<ShardedSource & { rowCount: number }> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const names = new Set(parquetSchema(metadata).children.map((c) => c.element.name));
  const idColumn = names.has('id') ? 'id' : names.has('passage_id') ? 'passage_id' : null;
  const missing = [...REQUIRED.filter((c) => !names.has(c)), ...(idColumn ? [] : ['id (or passage_id)'])];
  if (missing.length) throw new Error(`${path}: Parquet file lacks column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (it has ${[...names].join(', ')})`);
  const columns = [idColumn!, ...REQUIRED, ...['doc_id', 'index'].filter((c) => names.has(c))];
  return {
    rowCount: Number(metadata.num_rows),
    async *rows(): AsyncGenerator<ShardedRow> {
      let rowStart = 0;
      for (const group of metadata.row_groups) {
        const rowEnd = rowStart + Number(group.num_rows);
        const rows = await parquetReadObjects({ file, metadata, columns, rowStart, rowEnd, rowFormat: 'object' });
        for (const r of rows) {
          const emb = r.embedding as ArrayLike<number> | null;
          const id = String(r[idColumn!] ?? '');
          if (!id) throw new Error(`${path}: a row has no ${idColumn}`);
          if (!emb || typeof emb.length !== 'number' || emb.length === 0) throw new Error(`${path}: passage ${id} has no embedding`);
          const title = String(r.title ?? '');
          yield {
            id,
            docId: String(r.doc_id ?? title),
            title,
            text: String(r.text ?? ''),
            index: Number(r.index ?? 0),
            embedding: Float32Array.from(emb),
          };
        }
        rowStart = rowEnd;
      }
    },
  };
}
