// The distributed recipe of docs/large-corpora.md ("Embedding a large corpus elsewhere"), run
// for real (`RAY_PYTHON=/tmp/refenv/bin/python npm run bench -- ray-recipe`): the first N
// passages of the real-text corpus (bench/real/corpus.ts) as passages.parquet, embedded by the
// docs' Ray Data job on a local Ray with sentence-transformers all-MiniLM-L6-v2, lists trained
// and assigned with faiss (bench/ray-recipe/embed.py), then `npm run index -- --parquet` without
// and with the job's centroids, then measured: recall@10 of each corpus read at its manifest's
// depth against exact search over the vectors Ray wrote (the baseline, same run); the page's
// ONNX embedder against Ray's vectors; and the production page answering held-out questions
// from the corpus in headless Chromium. Not part of CI: Ray, faiss and torch are Python.
// RAY_RECIPE_N (default 3000) passages; RAY_RECIPE_CPUS (default 2) Ray actors;
// RAY_RECIPE_REUSE=1 keeps the last job's output for the same N; RAY_RECIPE_DIR the work folder.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_EMBEDDER } from '../src/evaluator/config';
import { ROOT, serveDir } from '../test/browser/harness';
import {
  CORPUS_FILES,
  corpusEmbeddingText,
  readJsonl,
  realCorpusDir,
  type CorpusPassage,
  type CorpusQuery,
} from './real/corpus';
import { createRealEmbedder, realEmbedderDir, type RealVariant } from './real/real-embedder';
import { cosines, exactSearch, K, recallAgainst, shardedRecall, type RecallResult } from './ray-recipe/measure';
import { askPage, buildSite } from './ray-recipe/page';
import { readEmbedded, writePassagesParquet } from './ray-recipe/parquet-io';
import { rayPython, SETUP } from './ray-recipe/python';

const SAMPLE = 50;
/** Held-out questions the page is asked: spread over the list, fixed so reruns compare. */
const PAGE_QUESTIONS = [100, 300, 500, 700, 900];
const f3 = (x: number) => x.toFixed(3);
const s1 = (x: number) => x.toFixed(1);

/** Runs a command under `nice` (the machine is shared), its output to `logFile`; lines matching `show` are echoed. */
function runLogged(cmd: string[], logFile: string, show: RegExp): Promise<number> {
  const started = performance.now();
  const log = createWriteStream(logFile);
  const child = spawn('nice', ['-n', '10', ...cmd], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (d: Buffer) => {
      log.write(d);
      for (const line of d.toString().split('\n')) if (show.test(line)) console.log(`  ${line.trim()}`);
    });
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      log.end();
      if (code === 0) resolve((performance.now() - started) / 1000);
      else reject(new Error(`${cmd.join(' ')} exited ${code}: see ${logFile}`));
    }),
  );
}

interface RayTimings {
  'ray.init': number;
  embed: number;
  centroids: number;
  assign: number;
  questions: number;
  passages: number;
  lists: number;
  sample: number;
  cpus: number;
  versions: Record<string, string>;
}

async function nodeEmbed(variant: RealVariant, texts: string[], queries = false) {
  const embedder = createRealEmbedder(variant);
  await embedder.embed(['warm-up: the model loads before the clock starts']);
  const t = performance.now();
  const vectors = await (queries ? embedder.embedQueries(texts) : embedder.embed(texts));
  const s = (performance.now() - t) / 1000;
  await embedder.dispose();
  return { vectors, perSecond: texts.length / s };
}

export async function run(): Promise<void> {
  const py = rayPython();
  if ('missing' in py) {
    console.log(`!!! RAY RECIPE NOT RUN: ${py.missing}. Set it up with: ${SETUP}`);
    return;
  }
  const corpusFile = join(realCorpusDir(), CORPUS_FILES.passages);
  if (!existsSync(corpusFile) || !realEmbedderDir()) {
    console.log(
      `!!! RAY RECIPE NOT RUN: it needs the real-text corpus (${corpusFile}: \`npx tsx bench/real/build-corpus.ts\`) and the real embedder (\`npm run models -- --real\`).`,
    );
    return;
  }
  const n = Number(process.env.RAY_RECIPE_N ?? 3000);
  const cpus = Number(process.env.RAY_RECIPE_CPUS ?? 2);
  const work = process.env.RAY_RECIPE_DIR ?? join(homedir(), '.cache', 'selfrag', 'ray-recipe');
  mkdirSync(work, { recursive: true });
  const at = (f: string) => join(work, f);
  const t0 = performance.now();
  const step = (l: string) => console.log(`[ray-recipe +${((performance.now() - t0) / 1000).toFixed(0)} s] ${l}`);

  const passages = await readJsonl<CorpusPassage>(corpusFile, n);
  const queriesFile = join(realCorpusDir(), CORPUS_FILES.queries);
  const queries = await readJsonl<CorpusQuery>(queriesFile);
  const before = existsSync(at('timings.json'))
    ? (JSON.parse(readFileSync(at('timings.json'), 'utf8')) as RayTimings)
    : null;
  const reuse = process.env.RAY_RECIPE_REUSE === '1' && before?.passages === passages.length;
  let pythonWall = NaN;
  if (!reuse) {
    // Ray adds part files to a folder that exists: last run's would be read twice.
    for (const f of ['embedded', 'listed', 'centroids.parquet', 'timings.json', 'questions-st.f32'])
      rmSync(at(f), { recursive: true, force: true });
    writePassagesParquet(at('passages.parquet'), passages);
    step(`${passages.length} passages written to ${at('passages.parquet')}; the Ray job runs (log: ${at('ray.log')})`);
    const script = join(ROOT, 'bench/ray-recipe/embed.py');
    pythonWall = await runLogged(
      [py.python, script, work, '--questions', queriesFile, '--cpus', String(cpus)],
      at('ray.log'),
      /^\[ray-recipe\]|Error/,
    );
  } else step(`RAY_RECIPE_REUSE=1: the last job's output for ${passages.length} passages is used`);
  const ray = JSON.parse(readFileSync(at('timings.json'), 'utf8')) as RayTimings;

  // The docs' command, both ways.
  const index = async (name: string, args: string[]) => {
    rmSync(at(name), { recursive: true, force: true });
    const cmd = ['npm', 'run', 'index', '--', ...args, '--model', DEFAULT_EMBEDDER, '--out', at(name)];
    step(cmd.join(' '));
    return runLogged(cmd, at(`${name}.log`), /^\d+ passages in/);
  };
  const flatS = await index('index-flat', ['--parquet', at('embedded')]);
  const ivfS = await index('index-ivf', ['--parquet', at('listed'), '--centroids', at('centroids.parquet')]);

  const data = await readEmbedded(at('embedded'));
  if (data.ids.length !== passages.length)
    throw new Error(`Ray wrote ${data.ids.length} of ${passages.length} passages`);
  const stQ = new Float32Array(readFileSync(at('questions-st.f32')).buffer.slice(0));
  const stQuestions = queries.map((_, i) => stQ.subarray(i * data.dim, (i + 1) * data.dim));

  // The page's own embedder (onnxruntime in Node, the same ONNX files the page runs) on the same passages.
  const byId = new Map(passages.map((p) => [p.id, p]));
  const sample = Array.from({ length: SAMPLE }, (_, i) => Math.floor((i * data.ids.length) / SAMPLE));
  const texts = sample.map((r) => corpusEmbeddingText(byId.get(data.ids[r]!)!));
  const rayRows = sample.map((r) => data.vectors[r]!);
  step(`the page's embedder on ${SAMPLE} passages (fp32, q8) and ${queries.length} questions (q8)`);
  const fp32 = await nodeEmbed('fp32', texts);
  const q8 = await nodeEmbed('q8', texts);
  const q8Questions = (
    await nodeEmbed(
      'q8',
      queries.map((q) => q.text),
      true,
    )
  ).vectors;

  step(`recall@${K}: ${queries.length} held-out questions against exact search over Ray's vectors`);
  const truthSt = exactSearch(data, stQuestions);
  const truthQ8 = exactSearch(data, q8Questions);
  const served = await serveDir(work);
  const recall: Array<{ corpus: string; questions: string; r: RecallResult }> = [];
  try {
    for (const [corpus, dir] of [
      ['embedded/ (writer trains the lists)', 'index-flat'],
      ['listed/ + centroids.parquet (faiss lists)', 'index-ivf'],
    ] as const) {
      recall.push({
        corpus,
        questions: 'sentence-transformers',
        r: await shardedRecall(`${served.url}${dir}/`, stQuestions, truthSt),
      });
      recall.push({
        corpus,
        questions: 'page (ONNX q8)',
        r: await shardedRecall(`${served.url}${dir}/`, q8Questions, truthQ8),
      });
    }
  } finally {
    await served.close();
  }
  // What embedding questions with the page's q8 model instead of sentence-transformers costs, exact search both.
  const questionSwap = recallAgainst(truthQ8, truthSt);

  step('the production page, asked from the ivf corpus in headless Chromium');
  await buildSite(at('site'), at('index-ivf'));
  const asked = PAGE_QUESTIONS.filter((i) => i < queries.length);
  const page = await askPage(
    at('site'),
    asked.map((i) => queries[i]!.text),
    at('page.png'),
    step,
  );

  const v = ray.versions;
  console.log(
    `\nRAY RECIPE: ${data.ids.length} passages of the real-text corpus, Ray ${v.ray} (local, ${ray.cpus} CPU actors), sentence-transformers ${v['sentence-transformers']}, torch ${v.torch} (CPU), faiss-cpu ${v['faiss-cpu']}, pyarrow ${v.pyarrow}, pandas ${v.pandas}; ${ray.lists} lists trained on ${ray.sample} sampled passages.${reuse ? ' (Ray job output reused: RAY_RECIPE_REUSE=1)' : ''}\n`,
  );
  console.log('| step | wall s | passages/s | passages/s ÷ page embedder q8 (Node, same machine) |');
  console.log('|---|---:|---:|---:|');
  const rate = (s: number) => data.ids.length / s;
  const row = (name: string, s: number, perS = rate(s)) =>
    console.log(`| ${name} | ${s1(s)} | ${s1(perS)} | ${(perS / q8.perSecond).toFixed(2)} |`);
  console.log(`| Ray: ray.init (local) | ${s1(ray['ray.init'])} | | |`);
  row(`Ray: map step, Embed (${ray.cpus} actors, read + encode + write_parquet)`, ray.embed);
  row('Ray + faiss: sample, k-means, centroids.parquet', ray.centroids);
  row('Ray + faiss: map step, Assign → listed/', ray.assign);
  if (!reuse) row('whole Python process (imports, the above, the questions)', pythonWall);
  row('`npm run index -- --parquet embedded/`', flatS);
  row('`npm run index -- --parquet listed/ --centroids centroids.parquet`', ivfS);
  console.log(
    `| page embedder, Node ONNX fp32 (${SAMPLE} passages, model loaded) | | ${s1(fp32.perSecond)} | ${(fp32.perSecond / q8.perSecond).toFixed(2)} |`,
  );
  console.log(`| page embedder, Node ONNX q8 (${SAMPLE} passages; baseline) | | ${s1(q8.perSecond)} | 1.00 |`);

  console.log(
    `\nThe page's embedder against the vectors Ray wrote (${SAMPLE} passages spread over the corpus), and on the questions:\n`,
  );
  console.log('| pair | mean cosine | min cosine |');
  console.log('|---|---:|---:|');
  for (const [name, c] of [
    ['Node ONNX fp32 vs Ray (sentence-transformers), passages', cosines(fp32.vectors, rayRows)],
    ['Node ONNX q8 vs Ray (sentence-transformers), passages', cosines(q8.vectors, rayRows)],
    [`Node ONNX q8 vs sentence-transformers, ${queries.length} questions`, cosines(q8Questions, stQuestions)],
  ] as const)
    console.log(`| ${name} | ${c.mean.toFixed(4)} | ${c.min.toFixed(4)} |`);

  console.log(
    `\nrecall@${K} of the written corpora read at their manifests' depth, ${queries.length} held-out questions; baseline: exact cosine search over Ray's vectors with the same question vectors (recall 1 by definition).\n`,
  );
  console.log(
    `| corpus | questions embedded by | depth (manifest) | recall@${K} | 10th-percentile question | exact top-1 found | kB a question, first visit | the writer's estimate (its own passages as questions) |`,
  );
  console.log('|---|---|---|---:|---:|---:|---:|---|');
  for (const { corpus, questions, r } of recall)
    console.log(
      `| ${corpus} | ${questions} | ${r.depth} | ${f3(r.recall)} | ${f3(r.p10)} | ${f3(r.top1)} | ${s1(r.bytes / 1000)} | ${r.writer} |`,
    );
  console.log(
    `| exact search (no index) | page (ONNX q8), against sentence-transformers questions' exact top ${K} | all | ${f3(questionSwap.recall)} | ${f3(questionSwap.p10)} | ${f3(questionSwap.top1)} | | |`,
  );

  const titles = new Set(data.titles);
  const rowOf = new Map(data.ids.map((id, i) => [id, i]));
  console.log(
    `\nThe production page (headless Chromium, WASM, evidence-only, by meaning, no re-ranking), index/ = the faiss-listed corpus:\n`,
  );
  console.log(
    '| held-out question | status | passages shown | from the corpus | exact top-1 (q8 question) shown | shown first |',
  );
  console.log('|---|---|---:|---:|---|---|');
  page.answers.forEach((a, j) => {
    const top = rowOf.get(truthQ8[asked[j]!]![0]!)!;
    const isTop = (s: { title: string; index: number }) => s.title === data.titles[top] && s.index === data.index[top];
    console.log(
      `| ${a.question.slice(0, 70).replace(/\|/g, '\\|')}… | ${a.status} | ${a.shown.length} | ${a.shown.filter((s) => titles.has(s.title)).length} | ${a.shown.some(isTop) ? 'yes' : 'no'} | ${a.shown[0] && isTop(a.shown[0]) ? 'yes' : 'no'} |`,
    );
  });
  console.log(`\nthe page's library panel: ${page.library.replace(/\s+/g, ' ').slice(0, 300)}`);
  if (page.errors.length) console.log(`page errors: ${page.errors.join('; ')}`);
  console.log(`screenshot: ${at('page.png')}; the job's files: ${work}`);
}
