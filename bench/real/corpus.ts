// The real-text corpus for the benchmarks with the real embedder: documentation that no one
// here wrote, from this machine (the Rust books rustup ships, Debian's /usr/share/doc, the
// English man pages), parsed and chunked by the app's own code (prepareFile / prepare, as
// `npm run index` does). Cached on disk outside git so reruns neither re-read nor re-embed.
import { createReadStream, type Dirent, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { gunzipSync } from 'node:zlib';
import type { Passage } from '../../src/core/ports';
import { mulberry32 } from '../../src/core/mulberry32';
import { embeddingText, prepare, prepareFile } from '../../src/library/ingest';

export function realCorpusDir(): string {
  return process.env.SELFRAG_REAL_CORPUS ?? join(homedir(), '.cache', 'selfrag', 'real-corpus');
}

export const CORPUS_FILES = {
  passages: 'passages.jsonl',
  queries: 'queries.jsonl',
  vectors: (variant: string) => `vectors-${variant}.f32`,
  queryVectors: (variant: string) => `queries-${variant}.f32`,
} as const;

export interface CorpusPassage {
  id: string;
  docId: string;
  title: string;
  text: string;
  index: number;
  /** Where the document came from: rust, doc or man. */
  source: string;
}

export interface CorpusQuery {
  /** A held-out document's passage's first sentence: that document is not in the corpus. */
  text: string;
  docId: string;
  source: string;
}

/** Every HELD_OUT_EVERY-th document is held out: its passages' first sentences become queries. */
const HELD_OUT_EVERY = 40;
const MAX_QUERIES = 1000;

async function* walk(dir: string): AsyncGenerator<string> {
  let entries: Dirent[];
  try {
    entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* walk(path);
    else if (e.isFile()) yield path;
  }
}

/** Troff to plain text, roughly: requests dropped, font escapes and special characters undone. */
export function stripTroff(src: string): string {
  const out: string[] = [];
  for (const line of src.split('\n')) {
    if (/^['.]\s*\\"/.test(line) || /^\.\\"/.test(line)) continue;
    let l = line;
    const req = /^[.'](\S+)\s*(.*)$/.exec(l);
    if (req) {
      const [, name, rest] = req as unknown as [string, string, string];
      // Headings and font requests keep their text; every other request is layout.
      if (!/^(SH|SS|B|I|BI|BR|IB|IR|RB|RI|TP|IP|Nm|Nd|Fl|Ar|It|Dl|Pa|Xr)$/.test(name)) continue;
      l = rest.replace(/"/g, '');
    }
    l = l
      .replace(/\\f(\[[^\]]*\]|\(..|.)/g, '')
      .replace(/\\\((em|en)/g, '-')
      .replace(/\\\(.{2}/g, ' ')
      .replace(/\\\[[^\]]*\]/g, ' ')
      .replace(/\\[-e]/g, (m) => (m === '\\-' ? '-' : '\\'))
      .replace(/\\[&|^%c]/g, '')
      .replace(/\\s[-+]?\d/g, '')
      .replace(/\\\*(\(..|\[[^\]]*\]|.)/g, '')
      .replace(/\\(.)/g, '$1');
    out.push(l);
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

const TEXTLIKE = /\.(txt|md|rst|html?|text)$/i;

async function* sources(): AsyncGenerator<{ name: string; bytes: Uint8Array; source: string; title?: string }> {
  const rust = join(homedir(), '.rustup', 'toolchains');
  const toolchains = existsSync(rust) ? (await readdir(rust)).filter((t) => t.startsWith('stable')).sort() : [];
  if (toolchains[0]) {
    const html = join(rust, toolchains[0], 'share', 'doc', 'rust', 'html');
    for (const book of [
      'book',
      'reference',
      'nomicon',
      'rust-by-example',
      'cargo',
      'rustc',
      'edition-guide',
      'embedded-book',
      'rustdoc',
      'style-guide',
      'unstable-book',
      'error_codes',
      'clippy',
    ]) {
      for await (const path of walk(join(html, book))) {
        if (!/\.html$/.test(path) || /print\.html$|404\.html$|toc\.html$/.test(path)) continue;
        yield { name: relative(html, path), bytes: await readFile(path), source: 'rust' };
      }
    }
  }
  for await (const path of walk('/usr/share/doc')) {
    const name = relative('/usr/share/doc', path);
    if (/copyright$/.test(name)) continue; // licence texts, the same few hundred times
    const gz = name.endsWith('.gz');
    const inner = gz ? name.slice(0, -3) : name;
    if (!TEXTLIKE.test(inner) && !/(README|NEWS|changelog|TODO|FAQ|AUTHORS|THANKS|BUGS)[^/]*$/i.test(inner)) continue;
    let bytes: Uint8Array = await readFile(path);
    if (gz) {
      try {
        bytes = gunzipSync(bytes);
      } catch {
        continue;
      }
    }
    yield { name: TEXTLIKE.test(inner) ? inner : inner + '.txt', bytes, source: 'doc' };
  }
  for (const section of ['1', '2', '3', '4', '5', '6', '7', '8']) {
    for await (const path of walk(join('/usr/share/man', `man${section}`))) {
      if (!path.endsWith('.gz')) continue;
      let text: string;
      try {
        text = stripTroff(gunzipSync(await readFile(path)).toString('utf8'));
      } catch {
        continue;
      }
      if (/^\s*\.so\s/m.test(text) || text.length < 200) continue; // a link to another page
      const page = basename(path, '.gz');
      yield {
        name: `man/${page}.txt`,
        bytes: new TextEncoder().encode(text),
        source: 'man',
        title: `${page} manual page`,
      };
    }
  }
}

export interface BuiltCorpus {
  passages: number;
  queries: number;
  documents: number;
}

/** Reads, parses and chunks the sources; writes passages.jsonl and queries.jsonl. */
export async function buildCorpus(dir = realCorpusDir(), log: (l: string) => void = console.log): Promise<BuiltCorpus> {
  await mkdir(dir, { recursive: true });
  const seenDocs = new Set<string>();
  const seenText = new Set<string>();
  const byDoc: string[][] = [];
  let count = 0;
  const queries: CorpusQuery[] = [];
  let docs = 0;
  for await (const f of sources()) {
    let passages: Passage[];
    let docId: string;
    try {
      const prepared = await prepareFile({ name: f.name, bytes: f.bytes });
      const p = f.title ? await prepare({ ...prepared.parsed, title: f.title }) : prepared;
      passages = p.passages;
      docId = p.id;
    } catch {
      continue; // refused (binary, empty): not text this corpus wants
    }
    if (seenDocs.has(docId) || passages.length === 0) continue;
    seenDocs.add(docId);
    docs++;
    if (docs % HELD_OUT_EVERY === 0) {
      for (const p of passages) {
        const first = /^(.{30,300}?[.?!])(\s|$)/s.exec(p.text.replace(/\s+/g, ' '))?.[1];
        if (first) queries.push({ text: first, docId, source: f.source });
      }
      continue;
    }
    const lines: string[] = [];
    byDoc.push(lines);
    for (const p of passages) {
      if (seenText.has(p.text)) continue;
      seenText.add(p.text);
      count++;
      lines.push(
        JSON.stringify({
          id: p.id,
          docId,
          title: p.title,
          text: p.text,
          index: p.index,
          source: f.source,
        } satisfies CorpusPassage),
      );
    }
    if (docs % 2000 === 0) log(`${docs} documents, ${count} passages`);
  }
  // Documents in a fixed shuffled order, so any prefix (the first 100k passages) mixes every source.
  const random = mulberry32(20261126);
  for (let i = byDoc.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [byDoc[i], byDoc[j]] = [byDoc[j]!, byDoc[i]!];
  }
  const lines = byDoc.flat();
  // A fixed, spread-out sample of the held-out sentences.
  const step = Math.max(1, queries.length / MAX_QUERIES);
  const picked: CorpusQuery[] = [];
  for (let i = 0; picked.length < MAX_QUERIES && Math.floor(i) < queries.length; i += step)
    picked.push(queries[Math.floor(i)]!);
  await writeFile(join(dir, CORPUS_FILES.passages), lines.join('\n') + '\n');
  await writeFile(join(dir, CORPUS_FILES.queries), picked.map((q) => JSON.stringify(q)).join('\n') + '\n');
  log(`${docs} documents, ${lines.length} passages, ${picked.length} held-out queries (of ${queries.length})`);
  return { passages: lines.length, queries: picked.length, documents: docs };
}

export async function readJsonl<T>(path: string, limit = Infinity): Promise<T[]> {
  const out: T[] = [];
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of rl) {
    if (out.length >= limit) break;
    if (line) out.push(JSON.parse(line) as T);
  }
  rl.close();
  return out;
}

/** The text the library embeds for a passage (title + text), the same as ingestion's. */
export const corpusEmbeddingText = (p: CorpusPassage) =>
  embeddingText({ id: p.id, docId: p.docId, title: p.title, text: p.text, index: p.index } as Passage);
