// Ingestion as a user feels it with an embedder of the real default's size: a
// MiniLM-L6-shaped encoder (random weights, written here at bench time) embeds
// the passages of real-shaped documents. The library's pipeline (read, parse,
// chunk, embed in batches, check every vector) is compared with the same model
// called directly through transformers.js on the same passages, in the same run
// (target: the pipeline at >= 0.9x the raw call's throughput).
//
// This bench runs in Node, where transformers.js uses onnxruntime-node on the CPU;
// the browser's WASM (one / all threads) and WebGPU paths are not measured here.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BATCH_SIZE } from '../src/evaluator/config';
import { embeddingText, embedDocument, readAndPrepare, type PreparedDocument } from '../src/library/ingest';
import { loadPdfJsInNode } from '../src/library/parse/pdf-node';
import { writeRealShapedSet } from '../test/doubles/document-sets';
import { createEmbedder } from '../workers/evaluator/embedder';
import { writeMiniLmShaped } from './minilm/model';

const ROOT = join(import.meta.dirname, '..');
/** A printed page of prose, for "seconds per 100 pages". */
const PAGE_CHARS = 3000;
const DOCS = 40;

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ingest-bench-'));
  try {
    const set = writeRealShapedSet(ROOT, join(dir, 'docs'), 'corpus', 120);
    const files = set.documents.slice(0, DOCS).map((rel) => ({ name: rel, bytes: new Uint8Array(readFileSync(join(dir, 'docs', rel))) }));
    const prepared: PreparedDocument[] = [];
    for (const f of files) {
      const r = await readAndPrepare(f, { pdf: loadPdfJsInNode });
      if (r.ok) prepared.push(r.doc);
    }
    const words = prepared.flatMap((d) => d.parsed.text.toLowerCase().split(/\W+/)).filter(Boolean);
    const t0 = performance.now();
    writeMiniLmShaped(join(dir, 'models'), 'minilm', [...new Set(words)]);
    console.log(`MiniLM-L6-shaped model written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const passages = prepared.flatMap((d) => d.passages);
    const chars = prepared.reduce((n, d) => n + d.parsed.text.length, 0);
    const pages = chars / PAGE_CHARS;
    const embedder = createEmbedder({ model: { id: 'minilm' }, source: 'local', localModelPath: join(dir, 'models') });
    const { pipeline, env } = await import('@huggingface/transformers');
    env.allowLocalModels = true;
    env.allowRemoteModels = false;
    env.localModelPath = `${join(dir, 'models')}/`;
    const raw = (await pipeline('feature-extraction', 'minilm', { device: 'cpu' })) as unknown as (t: string[], o: object) => Promise<unknown>;
    await embedder.embed(['warm up the session']);
    await raw(['warm up the session'], { pooling: 'mean', normalize: true });

    const rawRun = async () => {
      const texts = passages.map(embeddingText);
      const start = performance.now();
      for (let i = 0; i < texts.length; i += DEFAULT_BATCH_SIZE) await raw(texts.slice(i, i + DEFAULT_BATCH_SIZE), { pooling: 'mean', normalize: true });
      return (performance.now() - start) / 1000;
    };
    const pipelineRun = async () => {
      const start = performance.now();
      let n = 0;
      for (const f of files) {
        const r = await readAndPrepare(f, { pdf: loadPdfJsInNode });
        if (r.ok) n += (await embedDocument(embedder, r.doc.passages)).passages.length;
      }
      if (n !== passages.length) throw new Error(`the pipeline embedded ${n} passages, expected ${passages.length}`);
      return (performance.now() - start) / 1000;
    };
    // Alternated, best of two each, so machine noise hits both alike.
    const rawTimes: number[] = [];
    const ourTimes: number[] = [];
    for (let i = 0; i < 2; i++) {
      rawTimes.push(await rawRun());
      ourTimes.push(await pipelineRun());
    }
    const rawS = Math.min(...rawTimes);
    const ourS = Math.min(...ourTimes);
    const row = (name: string, s: number) =>
      `| ${name} | ${(passages.length / s).toFixed(1)} | ${((s / pages) * 100).toFixed(1)} | ${(rawS / s).toFixed(2)}× |`;
    console.log(`\n${prepared.length} documents, ${passages.length} passages, ${(chars / 1e6).toFixed(2)} M characters (${pages.toFixed(0)} pages of ${PAGE_CHARS} characters); Node, onnxruntime-node CPU, default threads\n`);
    console.log('| path | passages/s | s per 100 pages | vs raw transformers.js |');
    console.log('| --- | --- | --- | --- |');
    console.log(row('raw transformers.js feature-extraction (embedding only)', rawS));
    console.log(row('library pipeline (read, parse, chunk, embed, check vectors)', ourS));
    await embedder.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
