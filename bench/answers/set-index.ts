// The labelled real set's documents as a pre-built index (what `npm run index` writes for a
// site), made once with the app's own parse/chunk/embed code and the real MiniLM, and reused
// while none of that code, the model or the documents has changed: embedding them all takes
// minutes on two cores, and every answer bench starts from the same library.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { extname, join, relative } from 'node:path';
import { indexFolder } from '../../scripts/index-folder';
import { OUTPUT_DIR, ROOT } from '../../test/browser/harness';
import { questionSet, resolveDoc } from '../../test/real/question-set';
import { createRealEmbedder } from '../real/real-embedder';

/** The code that decides what a passage holds: a change to any of it rebuilds the index. */
const CODE = ['src/library/parse', 'src/library/ingest.ts', 'src/core/chunk.ts', 'src/core/sentences.ts'];

function files(path: string): string[] {
  const abs = join(ROOT, path);
  if (!statSync(abs).isDirectory()) return [abs];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** A file name for each document of the set: its key, made safe, with the file's own extension. */
export function setDocuments(): { key: string; name: string; path: string }[] {
  const keys = [...new Set(questionSet().questions.map((q) => q.doc))].sort();
  return keys.map((key) => {
    const path = resolveDoc(key);
    return { key, path, name: `${key.replace(/[^\w.-]+/g, '_')}${extname(path)}` };
  });
}

/** What the index is made of: the code's and the documents' bytes, and the model (not where the checkout is). */
export function setIndexKey(docs = setDocuments()): string {
  const hash = createHash('sha256');
  for (const f of CODE.flatMap(files)) hash.update(relative(ROOT, f)).update(readFileSync(f));
  for (const d of docs) hash.update(d.name).update(readFileSync(d.path));
  hash.update('all-MiniLM-L6-v2 q8');
  return hash.digest('hex');
}

/** The folder holding the set's pre-built index (library.json, vectors.bin, words.bin), built if stale. */
export async function ensureSetIndex(log: (s: string) => void = console.log): Promise<string> {
  const docs = setDocuments();
  const key = setIndexKey(docs);
  // Laid out as a site serves it (index/ under the site's root), for the library to seed from.
  const out = join(OUTPUT_DIR, 'answers', 'site', 'index');
  const stamp = join(out, 'key.txt');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return out;
  const folder = join(OUTPUT_DIR, 'answers', 'set-docs');
  rmSync(folder, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  for (const d of docs) copyFileSync(d.path, join(folder, d.name));
  log(`[bench] embedding the ${docs.length} documents of the real question set (once; cached in ${out})`);
  const embedder = createRealEmbedder('q8');
  const t0 = Date.now();
  try {
    const r = await indexFolder({ folder, out, embedder, model: 'all-MiniLM-L6-v2' });
    log(`[bench] ${r.documents} documents, ${r.passages} passages in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  } finally {
    await embedder.dispose();
  }
  writeFileSync(stamp, key);
  return out;
}
