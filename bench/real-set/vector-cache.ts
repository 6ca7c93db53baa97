// Vectors of the real question set's passages and questions, cached on disk per model (outside
// git, in ~/.cache/selfrag/real-set or $SELFRAG_REAL_SET_CACHE) and keyed by the exact text
// embedded, so a rerun embeds only what changed (a new parser, a new passage text).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  const indexPath = join(dir, `${kind}.json`);
  const dataPath = join(dir, `${kind}.f32`);
  mkdirSync(dir, { recursive: true });
  const keys: string[] = existsSync(indexPath) ? JSON.parse(readFileSync(indexPath, 'utf8')) : [];
  let data = existsSync(dataPath)
    ? new Float32Array(new Uint8Array(readFileSync(dataPath)).buffer)
    : new Float32Array();
  const dim = keys.length ? data.length / keys.length : 0;
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
    for (const t of batch) {
      at.set(key(t), keys.length);
      keys.push(key(t));
    }
    writeFileSync(dataPath, new Uint8Array(data.buffer));
    writeFileSync(indexPath, JSON.stringify(keys));
    const rate = (i + batch.length) / ((performance.now() - started) / 1000);
    log(`  ${model}: embedded ${i + batch.length}/${missing.length} ${kind} texts (${rate.toFixed(1)}/s)`);
  }
  const d = keys.length ? data.length / keys.length : dim;
  return texts.map((t) => data.slice(at.get(key(t))! * d, (at.get(key(t))! + 1) * d));
}
