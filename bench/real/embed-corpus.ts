// `npx tsx bench/real/embed-corpus.ts --variant fp32|q8 [--limit N]`: embeds the real-text
// corpus's first N passages (and every held-out query) with the real all-MiniLM-L6-v2 in Node
// (onnxruntime-node, as `npm run index` does), appending to vectors-<variant>.f32 in the cache
// so an interrupted run resumes where it stopped and a rerun embeds nothing.
import { existsSync, statSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRealEmbedder, type RealVariant } from './real-embedder';
import {
  CORPUS_FILES,
  corpusEmbeddingText,
  readJsonl,
  realCorpusDir,
  type CorpusPassage,
  type CorpusQuery,
} from './corpus';

const DIM = 384;
const args = process.argv.slice(2);
const flag = (k: string) => {
  const i = args.indexOf(`--${k}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const variant = (flag('variant') ?? 'fp32') as RealVariant;
if (variant !== 'fp32' && variant !== 'q8') throw new Error(`--variant must be fp32 or q8, got ${variant}`);
const limit = Number(flag('limit') ?? Infinity);
const dir = realCorpusDir();
const embedder = createRealEmbedder(variant);

async function embedInto(
  file: string,
  texts: string[],
  embed: (t: string[]) => Promise<Float32Array[]>,
): Promise<void> {
  const path = join(dir, file);
  const done = existsSync(path) ? Math.floor(statSync(path).size / (DIM * 4)) : 0;
  if (done * DIM * 4 !== (existsSync(path) ? statSync(path).size : 0))
    throw new Error(`${path} ends mid-vector: delete it`);
  const started = performance.now();
  const STEP = 256;
  for (let i = done; i < texts.length; i += STEP) {
    const vs = await embed(texts.slice(i, i + STEP));
    const buf = new Float32Array(vs.length * DIM);
    vs.forEach((v, j) => buf.set(v, j * DIM));
    await appendFile(path, new Uint8Array(buf.buffer));
    const n = i + vs.length - done;
    const rate = n / ((performance.now() - started) / 1000);
    console.log(
      `${file}: ${i + vs.length}/${texts.length} (${rate.toFixed(1)}/s, ${((texts.length - i - vs.length) / rate / 60).toFixed(0)} min left)`,
    );
  }
}

const queries = await readJsonl<CorpusQuery>(join(dir, CORPUS_FILES.queries));
await embedInto(
  CORPUS_FILES.queryVectors(variant),
  queries.map((q) => q.text),
  (t) => embedder.embedQueries(t),
);
const passages = await readJsonl<CorpusPassage>(join(dir, CORPUS_FILES.passages), limit);
await embedInto(CORPUS_FILES.vectors(variant), passages.map(corpusEmbeddingText), (t) => embedder.embed(t));
await writeFile(join(dir, `done-${variant}.txt`), `${passages.length}\n`);
await embedder.dispose();
