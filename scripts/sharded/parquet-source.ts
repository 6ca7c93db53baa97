// Precomputed embeddings as Parquet (what Spark, Ray Data and Dask write), read one row
// group at a time so memory is bounded by the largest row group, not the file.
// Columns: `id` (or `passage_id`), `title`, `text`, `embedding` (list of floats), and
// optionally `doc_id` (default: the title), `index` (position in the document) and `list`
// (the IVF list the embedding job filed it in: a row of the centroids file).
// Centroids (`readCentroids`): `embedding`, and optionally `top` (each list's top group).
// A folder is read as its `*.parquet` part files in name order (what Spark and Ray Data write).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import type { GivenCentroids, ShardedRow, ShardedSource } from './write-sharded';

const REQUIRED = ['title', 'text', 'embedding'] as const;

/** `lists`: how many lists the given centroids hold (a `list` column is checked against it; without it, refused). */
export async function parquetSource(
  path: string,
  opts: { lists?: number; centroidsFile?: string } = {},
): Promise<ShardedSource & { rowCount: number }> {
  if (!statSync(path).isDirectory()) return parquetFile(path, opts);
  const parts = readdirSync(path)
    .filter((f) => f.endsWith('.parquet'))
    .sort();
  if (!parts.length) throw new Error(`${path} holds no .parquet files`);
  const sources = await Promise.all(parts.map((f) => parquetFile(join(path, f), opts)));
  return {
    rowCount: sources.reduce((s, x) => s + x.rowCount, 0),
    async *rows() {
      for (const s of sources) yield* s.rows();
    },
  };
}

async function parquetFile(
  path: string,
  opts: { lists?: number; centroidsFile?: string },
): Promise<ShardedSource & { rowCount: number }> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const names = new Set(parquetSchema(metadata).children.map((c) => c.element.name));
  const idColumn = names.has('id') ? 'id' : names.has('passage_id') ? 'passage_id' : null;
  const missing = [...REQUIRED.filter((c) => !names.has(c)), ...(idColumn ? [] : ['id (or passage_id)'])];
  if (missing.length)
    throw new Error(
      `${path}: Parquet file lacks column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (it has ${[...names].join(', ')})`,
    );
  const hasList = names.has('list');
  if (hasList && opts.lists === undefined)
    throw new Error(
      `${path} has a \`list\` column (each passage's IVF list), which indexes a centroids file: give it with --centroids <centroids.parquet>`,
    );
  const columns = [idColumn!, ...REQUIRED, ...['doc_id', 'index', 'list'].filter((c) => names.has(c))];
  return {
    rowCount: Number(metadata.num_rows),
    async *rows(): AsyncGenerator<ShardedRow> {
      let rowStart = 0;
      for (const group of metadata.row_groups) {
        const rowEnd = rowStart + Number(group.num_rows);
        const rows = await parquetReadObjects({ file, metadata, columns, rowStart, rowEnd, rowFormat: 'object' });
        for (const [i, r] of rows.entries()) {
          const at = `${path} row ${rowStart + i}`;
          const emb = r.embedding as ArrayLike<number> | null;
          const id = String(r[idColumn!] ?? '');
          if (!id) throw new Error(`${at} has no ${idColumn}`);
          if (!emb || typeof emb.length !== 'number' || emb.length === 0)
            throw new Error(`${at}: passage ${id} has no embedding`);
          let list: number | undefined;
          if (hasList) {
            list = Number(r.list);
            if (r.list === null || r.list === undefined || !Number.isInteger(list) || list < 0 || list >= opts.lists!)
              throw new Error(
                `${at}: passage ${id} is in list ${String(r.list)}, out of range (${opts.centroidsFile ?? 'the centroids'} has ${opts.lists} lists, 0 to ${opts.lists! - 1})`,
              );
          }
          const title = String(r.title ?? '');
          yield {
            id,
            docId: String(r.doc_id ?? title),
            title,
            text: String(r.text ?? ''),
            index: Number(r.index ?? 0),
            embedding: Float32Array.from(emb),
            ...(list !== undefined ? { list } : {}),
          };
        }
        rowStart = rowEnd;
      }
    },
  };
}

/** List centroids from Parquet (`embedding`, optional `top`), e.g. faiss k-means written by the embedding job. */
export async function readCentroids(path: string): Promise<GivenCentroids> {
  const { vectors, dim, rows, hasColumn } = await readEmbeddings(path, 'centroid', ['top']);
  if (!hasColumn('top')) return { vectors, dim, source: path };
  const top = new Int32Array(rows.length);
  rows.forEach((r, i) => {
    const t = Number(r.top);
    if (r.top === null || r.top === undefined || !Number.isInteger(t) || t < 0)
      throw new Error(`${path} row ${i}: top ${String(r.top)} is not a whole number ≥ 0`);
    top[i] = t;
  });
  return { vectors, dim, source: path, top };
}

/**
 * Calibration questions (`--questions`): an `embedding` column, one question a row, embedded by
 * the model the page embeds questions with (the same job that embedded the passages can write it).
 */
export async function readQuestionVectors(path: string): Promise<Float32Array> {
  return (await readEmbeddings(path, 'question')).vectors;
}

/** A whole file's `embedding` column as one buffer (all rows the same length), with the optional columns asked for. */
async function readEmbeddings(path: string, what: 'centroid' | 'question', optional: string[] = []) {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const names = new Set(parquetSchema(metadata).children.map((c) => c.element.name));
  if (!names.has('embedding'))
    throw new Error(`${path}: a ${what}s file needs an \`embedding\` column (it has ${[...names].join(', ')})`);
  const extra = optional.filter((c) => names.has(c));
  const rows = await parquetReadObjects({ file, metadata, columns: ['embedding', ...extra], rowFormat: 'object' });
  if (!rows.length) throw new Error(`${path} holds no ${what}s`);
  const dim = (rows[0]!.embedding as ArrayLike<number> | null)?.length ?? 0;
  const vectors = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => {
    const e = r.embedding as ArrayLike<number> | null;
    if (!e || e.length !== dim || dim === 0)
      throw new Error(`${path} row ${i}: a ${e?.length ?? 0}-d ${what}, the first is ${dim}-d`);
    vectors.set(Float32Array.from(e), i * dim);
  });
  return { vectors, dim, rows, hasColumn: (c: string) => extra.includes(c) };
}
