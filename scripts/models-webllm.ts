// Offline model pack for the generator: downloads a WebLLM model's config,
// weight shards, tokenizer and compiled model library into public/models/webllm/
// and records it in public/models/webllm/app-config.json, so the built site
// serves the model itself (src/generator/catalogue.ts resolves it against the
// page's base, so the site still works from a sub-path).
//
//   npm run models -- --generator qwen2.5-0.5b         both builds (f16 and f32: the GPU decides at load)
//   npm run models -- --generator qwen2.5-0.5b:f32     one build
//   npm run models -- --generator Qwen2.5-0.5B-Instruct-q4f32_1-MLC
//   (direct) npx tsx scripts/models-webllm.ts <ids…> [--out dir]
//
// HF_ENDPOINT overrides the hub (a mirror); MODEL_LIB_BASE the model-library host.
// Each build is written to a temporary folder and moved into place only when complete.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOGUE, LOCAL_PACK_DIR, MODEL_LIB_BASE, type LocalPack, type Precision } from '../src/generator/catalogue';
import { errorMessage } from '../src/core/errors';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_PACK_DIR = join(ROOT, 'public', LOCAL_PACK_DIR);

export class HubUnreachableError extends Error {
  override readonly name = 'HubUnreachableError';
}

export interface Build {
  modelId: string;
  lib: string;
  native: boolean;
}

/** Catalogue id (optionally `:f16`/`:f32`) or a web-llm model id → the builds to fetch. */
export function buildsFor(arg: string): Build[] {
  const [id, precision] = arg.split(':') as [string, Precision | undefined];
  const byId = CATALOGUE.find((m) => m.id === id);
  if (byId) {
    const precisions: Precision[] = precision ? [precision] : ['f16', 'f32'];
    return precisions.map((p) => ({ modelId: byId.builds[p].modelId, lib: byId.builds[p].lib, native: byId.native }));
  }
  for (const m of CATALOGUE) {
    for (const b of Object.values(m.builds))
      if (b.modelId === arg) return [{ modelId: b.modelId, lib: b.lib, native: m.native }];
  }
  throw new Error(
    `Unknown generator model "${arg}". Use one of: ${CATALOGUE.map((m) => m.id).join(', ')} (optionally with :f16 or :f32), or a web-llm model id.`,
  );
}

export interface PackOptions {
  outDir?: string;
  hub?: string;
  libBase?: string;
  fetch?: typeof fetch;
  log?: (line: string) => void;
}

async function get(f: typeof fetch, url: string): Promise<Response> {
  let res: Response;
  try {
    res = await f(url);
  } catch (e) {
    const host = new URL(url).host;
    throw new HubUnreachableError(
      `Cannot reach ${host} (${(e as Error).message}). The model pack needs the network once: run this where ${host} is reachable ` +
        `(or set HF_ENDPOINT / MODEL_LIB_BASE to a mirror), then copy ${LOCAL_PACK_DIR} into public/ here.`,
    );
  }
  if (!res.ok) throw new Error(`GET ${url} failed: HTTP ${res.status}.`);
  return res;
}

/** Downloads one build into `<out>/<modelId>/resolve/main/` (the layout web-llm expects) and its library into `<out>/libs/`. */
export async function packBuild(build: Build, opts: PackOptions = {}): Promise<string> {
  const out = opts.outDir ?? DEFAULT_PACK_DIR;
  const hub = (opts.hub ?? process.env.HF_ENDPOINT ?? 'https://huggingface.co').replace(/\/$/, '');
  const libBase = opts.libBase ?? process.env.MODEL_LIB_BASE ?? MODEL_LIB_BASE;
  const f = opts.fetch ?? fetch;
  const log = opts.log ?? console.log;
  const base = `${hub}/mlc-ai/${build.modelId}/resolve/main/`;
  const tmp = join(out, `.tmp-${build.modelId}`);
  const createdOut = !existsSync(out);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    const save = async (name: string, from = name): Promise<Buffer> => {
      const data = Buffer.from(await (await get(f, base + from)).arrayBuffer());
      mkdirSync(dirname(join(tmp, name)), { recursive: true });
      writeFileSync(join(tmp, name), data);
      return data;
    };
    const config = JSON.parse((await save('mlc-chat-config.json')).toString('utf8')) as { tokenizer_files?: string[] };
    // web-llm 0.2.86 reads tensor-cache.json; older conversions call it ndarray-cache.json.
    let cache: Buffer;
    try {
      cache = await save('tensor-cache.json');
    } catch (e) {
      if (e instanceof HubUnreachableError) throw e;
      cache = await save('tensor-cache.json', 'ndarray-cache.json');
    }
    const records = (JSON.parse(cache.toString('utf8')) as { records: { dataPath: string }[] }).records;
    for (const [i, r] of records.entries()) {
      log(`  ${build.modelId}: shard ${i + 1}/${records.length} ${r.dataPath}`);
      await save(r.dataPath);
    }
    for (const t of config.tokenizer_files ?? []) await save(t);
    const lib = Buffer.from(await (await get(f, libBase + build.lib)).arrayBuffer());
    const dest = join(out, build.modelId, 'resolve', 'main');
    rmSync(join(out, build.modelId), { recursive: true, force: true });
    mkdirSync(dirname(dest), { recursive: true });
    renameSync(tmp, dest);
    mkdirSync(join(out, 'libs'), { recursive: true });
    writeFileSync(join(out, 'libs', build.lib), lib);
    recordInPack(out, build);
    return dest;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    // A failed first download leaves no empty pack folder behind.
    if (createdOut && readdirSync(out).length === 0) rmSync(out, { recursive: true, force: true });
  }
}

function recordInPack(out: string, build: Build): void {
  const file = join(out, 'app-config.json');
  const pack: LocalPack = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LocalPack) : { model_list: [] };
  pack.model_list = pack.model_list.filter((m) => m.model_id !== build.modelId);
  // Relative to the pack folder: the app resolves them against the page's base.
  pack.model_list.push({
    model_id: build.modelId,
    model: `${build.modelId}/resolve/main/`,
    model_lib: `libs/${build.lib}`,
    native: build.native,
  });
  writeFileSync(file, JSON.stringify(pack, null, 2) + '\n');
}

async function main(argv: string[]): Promise<number> {
  const ids: string[] = [];
  let outDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') outDir = resolve(argv[++i] ?? '');
    else ids.push(argv[i]!);
  }
  if (!ids.length) {
    console.error(`Usage: npm run models -- --generator <${CATALOGUE.map((m) => m.id).join('|')}>[:f16|:f32]`);
    return 1;
  }
  try {
    for (const build of ids.flatMap(buildsFor)) {
      console.log(`Downloading ${build.modelId}`);
      console.log(`Wrote ${await packBuild(build, outDir ? { outDir } : {})}`);
    }
    return 0;
  } catch (e) {
    console.error(errorMessage(e));
    return e instanceof HubUnreachableError ? 2 : 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
