// `npm run index -- <folder> [--out public/index] [--model <id>] [--models-dir <dir>]
//   [--target <tokens>] [--overlap <tokens>] [--sharded] [--lists <n>] [--word-shards <n>] [--recall <0..1>] [--questions <file>] [--bits 1|2|4]`
// `npm run index -- --parquet <file.parquet> [--centroids <centroids.parquet>] [--out public/index] [--model <id>] [--lists <n>] [--tops <n>] [--assign-tops <n>] [--word-shards <n>] [--recall <0..1>] [--questions <file>] [--bits 1|2|4]`
// Embeds a folder of documents in Node with the library's own parse/chunk/embed
// code and writes the pre-built index a static site loads on first visit; with
// --sharded, or from precomputed embeddings in Parquet, writes the sharded corpus
// a page reads by range requests (src/library/sharded/format/).
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChunkOptions } from '../src/core/chunk';
import type { Embedder, Passage } from '../src/core/ports';
import { DEFAULT_EMBEDDER } from '../src/evaluator/config';
import { embeddingText, embedPassages, prepareFile } from '../src/library/ingest';
import { RefusedFile } from '../src/library/parse';
import { loadPdfJsInNode } from '../src/library/parse/pdf-node';
import { LexicalIndex } from '../src/library/lexical/lexical-index';
import {
  encodePrebuilt,
  PREBUILT_JSON,
  PREBUILT_LEXICAL,
  PREBUILT_VECTORS,
  PREBUILT_VERSION,
  type PrebuiltDocument,
} from '../src/library/prebuilt';
import { createEmbedder, type LoadedEmbedder } from '../workers/evaluator/embedder';
import { checkCorpus, checkReport } from './sharded/check-corpus';
import { parquetSource, readCentroids, readQuestionVectors } from './sharded/parquet-source';
import { DEFAULT_CODES, writeSharded, type ShardedRow, type WriteShardedResult } from './sharded/write-sharded';
import type { CodeChoice } from './sharded/options';
import { errorMessage } from '../src/core/errors';

export interface IndexFolderOptions {
  folder: string;
  out: string;
  embedder: Embedder;
  /** Recorded in library.json so the site can tell whether the vectors fit its embedder. */
  model: string | null;
  chunk?: ChunkOptions;
  log?: (line: string) => void;
  /** Write the sharded corpus instead of the single-file index. */
  sharded?: {
    lists?: number;
    wordShards?: number;
    targetRecall?: number;
    questions?: Float32Array;
    codes?: CodeChoice;
  };
  /**
   * Where the site serves the indexed folder's files, relative to the site's base (e.g. `docs/`):
   * each passage then links to its original, which the viewer opens. Absent: no link.
   */
  linkOriginals?: string;
}

/** The address of a file of the folder under `base`, each path segment escaped. */
export function originalUrl(base: string, name: string): string {
  return (base.endsWith('/') ? base : `${base}/`) + name.split('/').map(encodeURIComponent).join('/');
}

export interface IndexFolderResult {
  documents: number;
  passages: number;
  refused: Array<{ name: string; reason: string }>;
  files: string[];
}

/** What a folder walk picks up; anything else (images, data, the sample manifest) is skipped, not refused. */
const DOCUMENT_FILE = /\.(txt|text|md|markdown|mdown|mkd|html?|xhtml|pdf)$/i;

async function* walk(dir: string): AsyncGenerator<string> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* walk(path);
    else if (e.isFile()) yield path;
  }
}

export async function indexFolder(opts: IndexFolderOptions): Promise<IndexFolderResult> {
  const log = opts.log ?? (() => undefined);
  const root = resolve(opts.folder);
  if (!(await stat(root).catch(() => null))?.isDirectory()) throw new Error(`${opts.folder} is not a folder`);
  const outDir = resolve(opts.out);
  const documents: PrebuiltDocument[] = [];
  const passages: Passage[] = [];
  const vectors: Float32Array[] = [];
  const refused: IndexFolderResult['refused'] = [];
  const seen = new Set<string>();
  for await (const path of walk(root)) {
    const name = relative(root, path).split('\\').join('/');
    // Never index our own output when it sits inside the folder.
    if (path.startsWith(outDir + '/')) continue;
    if (!DOCUMENT_FILE.test(name)) {
      log(`skip  ${name} (not a text, Markdown, HTML or PDF file)`);
      continue;
    }
    try {
      const prepared = await prepareFile(
        { name, bytes: new Uint8Array(await readFile(path)) },
        { pdf: loadPdfJsInNode, ...(opts.chunk ? { chunk: opts.chunk } : {}) },
      );
      if (seen.has(prepared.id)) {
        log(`skip  ${name} (same text as a document already indexed)`);
        continue;
      }
      seen.add(prepared.id);
      const vs = await embedPassages(opts.embedder, prepared.passages);
      documents.push({ id: prepared.id, ...prepared.parsed });
      const url = opts.linkOriginals !== undefined ? originalUrl(opts.linkOriginals, name) : undefined;
      passages.push(
        ...(url ? prepared.passages.map((p) => ({ ...p, source: { ...p.source, url } })) : prepared.passages),
      );
      vectors.push(...vs);
      log(`added ${name}: ${prepared.passages.length} passages`);
    } catch (e) {
      if (!(e instanceof RefusedFile)) throw e;
      refused.push({ name, reason: e.reason });
      log(`refused ${name}: ${e.reason}`);
    }
  }
  if (!documents.length) throw new Error(`no documents could be indexed in ${opts.folder}`);
  if (opts.sharded) {
    const rows = passages.map(
      (p, i): ShardedRow => ({
        id: p.id,
        docId: p.docId,
        title: p.title,
        text: p.text,
        index: p.index,
        ...(p.source ? { source: p.source } : {}),
        embedding: vectors[i]!,
      }),
    );
    const res = await writeSharded({
      out: outDir,
      model: opts.model,
      source: {
        rows: async function* () {
          yield* rows;
        },
      },
      ...(opts.sharded.lists ? { lists: opts.sharded.lists } : {}),
      ...(opts.sharded.wordShards ? { wordShards: opts.sharded.wordShards } : {}),
      ...(opts.sharded.targetRecall ? { targetRecall: opts.sharded.targetRecall } : {}),
      ...(opts.sharded.questions ? { questions: opts.sharded.questions } : {}),
      ...(opts.sharded.codes ? { codes: opts.sharded.codes } : {}),
      // Without questions, the depth is measured on pseudo-questions embedded as the page embeds questions.
      embedQuestions: (texts) => (opts.embedder.embedQueries ?? opts.embedder.embed).call(opts.embedder, texts),
      log,
    });
    return { documents: documents.length, passages: passages.length, refused, files: res.files };
  }
  const out = encodePrebuilt({ model: opts.model, documents, passages, vectors });
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, PREBUILT_JSON), out.json);
  await writeFile(join(outDir, PREBUILT_VECTORS), out.vectors);
  // The word index, tokenised here so visitors' browsers load it instead of building it.
  const lexical = new LexicalIndex();
  lexical.add(passages.map((p) => ({ id: p.id, text: embeddingText(p) })));
  await writeFile(join(outDir, PREBUILT_LEXICAL), (await lexical.snapshot()).bytes);
  // Written last: a visitor who sees the new version finds the files it names already in place.
  await writeFile(join(outDir, PREBUILT_VERSION), out.version);
  return {
    documents: documents.length,
    passages: passages.length,
    refused,
    files: [PREBUILT_JSON, PREBUILT_VECTORS, PREBUILT_LEXICAL, PREBUILT_VERSION].map((f) => join(outDir, f)),
  };
}

function parseArgs(argv: string[]): { folder?: string; flags: Map<string, string> } {
  const flags = new Map<string, string>();
  let folder: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--sharded') flags.set('sharded', 'yes');
    else if (a.startsWith('--')) {
      const [key, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`--${key} needs a value`);
      flags.set(key, value);
    } else if (!folder) folder = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  return { folder, flags };
}

const USAGE = [
  'usage: npm run index -- <folder> [--out public/index] [--model <id>] [--models-dir <dir>] [--target <tokens>] [--overlap <tokens>] [--sharded] [--lists <n>] [--word-shards <n>] [--recall <0..1>] [--bits 1|2|4] [--link-originals <site path>]',
  '       npm run index -- --parquet <file-or-folder> [--centroids <centroids.parquet>] [--out public/index] [--model <id>] [--lists <n>] [--tops <n>] [--assign-tops <n>] [--word-shards <n>] [--recall <0..1>] [--bits 1|2|4]',
  '  --link-originals: where the site serves the folder (e.g. docs/): each passage links to its original file for the viewer',
  "  --recall: the recall@10 the sharded writer chooses its probe depth for (default 0.95), measured on pseudo-questions: first sentences of a sample of the corpus's passages, each with its own document left out",
  '  --questions: questions like your users ask (a text file, one a line, or Parquet with an `embedding` column) to measure that depth on instead',
  '  --bits: bits a dimension of the passage codes a question scans (default 2: fewer requests; 1: fewer bytes, more rows rescored; 4: rarely worth it)',
  '       npm run index -- --check <corpus folder> --questions <file> [--model <id>] [--models-dir <dir>]',
  '  --check: how a written sharded corpus answers your questions: recall@10 against exact search, and the bytes and requests a question reads, beside what its manifest promises',
].join('\n');

/**
 * Precomputed embeddings in Parquet straight into the sharded format (no embedder runs here);
 * with `centroids`, the lists' centroids too (and, where the passages carry a `list`, their lists).
 */
export async function indexParquet(opts: {
  parquet: string;
  out: string;
  model: string | null;
  centroids?: string;
  lists?: number;
  tops?: number;
  assignTops?: number;
  wordShards?: number;
  targetRecall?: number;
  codes?: CodeChoice;
  /** Calibration questions, embedded (see WriteShardedOptions.questions). */
  questions?: Float32Array;
  /** Embeds pseudo-questions when no questions are given (see WriteShardedOptions.embedQuestions). */
  embedQuestions?: (texts: string[]) => Promise<Float32Array[]>;
  log?: (l: string) => void;
}): Promise<WriteShardedResult> {
  const centroids = opts.centroids ? await readCentroids(opts.centroids) : undefined;
  if (centroids && opts.lists)
    throw new Error(
      `--lists and --centroids cannot both be given: the centroids file fixes the lists (${centroids.vectors.length / centroids.dim})`,
    );
  const source = await parquetSource(
    opts.parquet,
    centroids ? { lists: centroids.vectors.length / centroids.dim, centroidsFile: opts.centroids! } : {},
  );
  return writeSharded({
    out: opts.out,
    model: opts.model,
    source,
    ...(centroids ? { centroids } : {}),
    ...(opts.lists ? { lists: opts.lists } : {}),
    ...(opts.tops ? { tops: opts.tops } : {}),
    ...(opts.assignTops ? { assignTops: opts.assignTops } : {}),
    ...(opts.wordShards ? { wordShards: opts.wordShards } : {}),
    ...(opts.targetRecall ? { targetRecall: opts.targetRecall } : {}),
    ...(opts.questions ? { questions: opts.questions } : {}),
    ...(opts.codes ? { codes: opts.codes } : {}),
    ...(opts.embedQuestions ? { embedQuestions: opts.embedQuestions } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
}

/**
 * `--bits`: the passages' RaBitQ bits a dimension. One bit halves the lists a question reads and
 * rescores more rows (more requests); two (the default) need 50–100 rows; four cost about twice
 * the bytes of two for a few requests fewer (docs/large-corpora.md, "What to expect").
 */
export function codesFlag(value: string): CodeChoice {
  const bits = Number(value);
  if (![1, 2, 4].includes(bits))
    throw new Error(`--bits must be 1, 2 or 4 (bits a dimension of the passage codes), got ${value}`);
  // The sub-centroids keep the default's bits: a top's block is read whole whatever the passages' code.
  return { kind: 'rabitq', bits, subBits: DEFAULT_CODES.kind === 'rabitq' ? DEFAULT_CODES.subBits : 4 };
}

/** A text file's questions, one a line. */
async function questionLines(path: string): Promise<string[]> {
  const lines = (await readFile(path, 'utf8'))
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (!lines.length) throw new Error(`${path} holds no questions (one a line)`);
  return lines;
}

/**
 * `--questions`: questions like the site's users ask, to choose the sharded corpus's reading depth
 * on. A `.parquet` file brings them embedded (an `embedding` column); any other file is text, one
 * question a line, embedded here as the page embeds questions.
 */
export async function calibrationQuestions(path: string, embedder: () => LoadedEmbedder): Promise<Float32Array> {
  if (path.endsWith('.parquet')) return readQuestionVectors(path);
  const lines = await questionLines(path);
  const vs = await embedder().embedQueries(lines);
  const out = new Float32Array(vs.reduce((n, v) => n + v.length, 0));
  let at = 0;
  for (const v of vs) {
    out.set(v, at);
    at += v.length;
  }
  return out;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const { folder, flags } = parseArgs(argv);
  const known = new Set([
    'out',
    'model',
    'models-dir',
    'target',
    'overlap',
    'sharded',
    'parquet',
    'centroids',
    'lists',
    'tops',
    'assign-tops',
    'word-shards',
    'recall',
    'questions',
    'bits',
    'link-originals',
    'check',
  ]);
  for (const k of flags.keys()) if (!known.has(k)) throw new Error(`unknown option --${k}\n${USAGE}`);
  const model = flags.get('model') ?? DEFAULT_EMBEDDER;
  const modelsDir = flags.get('models-dir');
  const num = (k: string) => {
    const v = flags.get(k);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${k} must be a whole number, got ${v}`);
    return n;
  };
  const parquet = flags.get('parquet');
  if (!parquet && (flags.has('centroids') || flags.has('assign-tops')))
    throw new Error(`--centroids and --assign-tops go with --parquet\n${USAGE}`);
  const lists = num('lists');
  const wordShards = num('word-shards');
  const recallFlag = flags.get('recall');
  const targetRecall = recallFlag === undefined ? undefined : Number(recallFlag);
  if (targetRecall !== undefined && !(targetRecall > 0 && targetRecall <= 1))
    throw new Error(`--recall must be a fraction above 0 and at most 1 (for example 0.95), got ${recallFlag}`);
  if (targetRecall !== undefined && !parquet && !flags.has('sharded'))
    throw new Error(`--recall goes with --sharded or --parquet\n${USAGE}`);
  const questionsFile = flags.get('questions');
  if (questionsFile !== undefined && !parquet && !flags.has('sharded'))
    throw new Error(`--questions goes with --sharded or --parquet\n${USAGE}`);
  const bitsFlag = flags.get('bits');
  if (bitsFlag !== undefined && !parquet && !flags.has('sharded'))
    throw new Error(`--bits goes with --sharded or --parquet\n${USAGE}`);
  const codes = bitsFlag === undefined ? undefined : codesFlag(bitsFlag);
  // Made once, and only when something needs it (Parquet brings its passages embedded).
  let made: LoadedEmbedder | null = null;
  const embedder = () =>
    (made ??= createEmbedder({
      model: { id: model },
      ...(modelsDir ? { source: 'local', localModelPath: resolve(modelsDir) } : { source: 'hub' }),
    }));
  const check = flags.get('check');
  if (check !== undefined) {
    if (!questionsFile) throw new Error(`--check needs --questions <file>\n${USAGE}`);
    const vectors = await calibrationQuestions(questionsFile, embedder);
    const texts = questionsFile.endsWith('.parquet') ? [] : await questionLines(questionsFile);
    console.log(checkReport(await checkCorpus(resolve(check), vectors, texts)));
    await (made as LoadedEmbedder | null)?.dispose();
    return;
  }
  const questions = questionsFile ? await calibrationQuestions(questionsFile, embedder) : undefined;
  if (parquet) {
    if (folder) throw new Error(`give either a folder or --parquet, not both\n${USAGE}`);
    const started = performance.now();
    const centroids = flags.get('centroids');
    const tops = num('tops');
    const assignTops = num('assign-tops');
    const res = await indexParquet({
      parquet,
      out: flags.get('out') ?? 'public/index',
      model,
      ...(centroids ? { centroids } : {}),
      ...(lists ? { lists } : {}),
      ...(tops ? { tops } : {}),
      ...(assignTops ? { assignTops } : {}),
      ...(wordShards ? { wordShards } : {}),
      ...(targetRecall ? { targetRecall } : {}),
      ...(questions ? { questions } : {}),
      ...(codes ? { codes } : {}),
      // The passages come embedded; pseudo-questions need the page's question embedder (loaded only now).
      embedQuestions: (texts) => embedder().embedQueries(texts),
      log: (l) => console.log(l),
    });
    // TS cannot see the closure above assign it.
    await (made as LoadedEmbedder | null)?.dispose();
    console.log(
      `\n${res.passages} passages in ${res.lists} lists (${res.coarse}) under ${res.tops} tops and ${res.wordShards} word shards, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    console.log(`wrote ${res.files.join(', ')}`);
    return;
  }
  if (!folder) throw new Error(USAGE);
  const chunk: ChunkOptions = {};
  if (num('target') !== undefined) chunk.targetTokens = num('target')!;
  if (num('overlap') !== undefined) chunk.overlapTokens = num('overlap')!;
  const started = performance.now();
  const sharded = flags.has('sharded')
    ? {
        ...(lists ? { lists } : {}),
        ...(wordShards ? { wordShards } : {}),
        ...(targetRecall ? { targetRecall } : {}),
        ...(questions ? { questions } : {}),
        ...(codes ? { codes } : {}),
      }
    : undefined;
  const linkOriginals = flags.get('link-originals');
  const res = await indexFolder({
    folder,
    out: flags.get('out') ?? 'public/index',
    embedder: embedder(),
    model,
    chunk,
    log: (l) => console.log(l),
    ...(sharded ? { sharded } : {}),
    ...(linkOriginals !== undefined ? { linkOriginals } : {}),
  });
  await embedder().dispose();
  console.log(
    `\n${res.documents} documents, ${res.passages} passages, ${res.refused.length} refused, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(`wrote ${res.files.join(', ')}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e: unknown) => {
    console.error(`index: ${errorMessage(e)}`);
    process.exit(1);
  });
}
