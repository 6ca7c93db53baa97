// Vectors of the real question set's passages and questions, cached on disk per model (outside
// git, in ~/.cache/selfrag/real-set or $SELFRAG_REAL_SET_CACHE) and keyed by the exact text
// embedded, so a rerun embeds only what changed (a new parser, a new passage text). Each model's
// cache is one file replaced whole, so two runs at once cannot pair one's keys with the other's
// vectors (the later write wins; the earlier run's new vectors are embedded again next time).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export function realSetCacheDir(): string {
  return process.env.SELFRAG_REAL_SET_CACHE ?? join(homedir(), '.cache', 'selfrag', 'real-set');
}

const key = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

export type EmbedFn = (texts: string[]) => Promise<Float32Array[]>;

/** Embeds what the cache lacks (in steps, saving after each), then returns every text's vector in order. */
export async function cachedVectors(
  model: string,
  kind: 'passage' | 'query',
  texts: string[],
  embed: EmbedFn,
  log: (s: string) => void = () => {},
): Promise<Float32Array[]> {
  const dir = join(realSetCacheDir(), model.replace(/[^\w.-]+/g, '_'));
  const path = join(dir, `${kind}.vectors`);
  mkdirSync(dir, { recursive: true });
  let { keys, data } = readCache(path);
  const at = new Map(keys.map((k, i) => [k, i]));
  const missing = [...new Set(texts.filter((t) => !at.has(key(t))))];
  const STEP = 128;
  const started = performance.now();
  for (let i = 0; i < missing.length; i += STEP) {
    const batch = missing.slice(i, i + STEP);
    const vs = await embed(batch);
    const d = vs[0]!.length;
    const grown = new Float32Array(data.length + vs.length * d);
    grown.set(data);
    vs.forEach((v, j) => grown.set(v, data.length + j * d));
    data = grown;
    keys = [...keys, ...batch.map(key)];
    batch.forEach((t, j) => at.set(key(t), keys.length - batch.length + j));
    writeCache(path, keys, data);
    const rate = (i + batch.length) / ((performance.now() - started) / 1000);
    log(`  ${model}: embedded ${i + batch.length}/${missing.length} ${kind} texts (${rate.toFixed(1)}/s)`);
  }
  const d = keys.length ? data.length / keys.length : 0;
  return texts.map((t) => data.slice(at.get(key(t))! * d, (at.get(key(t))! + 1) * d));
}

/** One file: the keys' JSON length (4 bytes), the keys, then the vectors; written whole under a temporary name. */
function writeCache(path: string, keys: string[], data: Float32Array): void {
  const json = new TextEncoder().encode(JSON.stringify(keys));
  const pad = (4 - ((4 + json.length) % 4)) % 4;
  const out = new Uint8Array(4 + json.length + pad + data.byteLength);
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), 4 + json.length + pad);
  const tmp = `${path}.${process.pid}.partial`;
  writeFileSync(tmp, out);
  renameSync(tmp, path);
}

function readCache(path: string): { keys: string[]; data: Float32Array } {
  if (!existsSync(path)) return { keys: [], data: new Float32Array() };
  const bytes = new Uint8Array(readFileSync(path));
  const n = new DataView(bytes.buffer).getUint32(0, true);
  const keys = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + n))) as string[];
  const pad = (4 - ((4 + n) % 4)) % 4;
  const data = new Float32Array(bytes.slice(4 + n + pad).buffer);
  if (keys.length && data.length % keys.length !== 0) return { keys: [], data: new Float32Array() };
  return { keys, data };
}
