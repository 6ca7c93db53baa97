// `npm run models -- --gguf <id|url>`: fetches a GGUF model for the llama.cpp engine into
// public/models/gguf/, where the app finds it before asking the hub (a laptop demo with no
// network). Ids are those of src/generator/gguf-catalogue.ts; a split model brings every part.
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { findGguf, GGUF_CATALOGUE } from '../src/generator/gguf-catalogue';

/** Where the app looks for a GGUF file before its catalogue address (see src/generator/wllama/create.ts). */
export const GGUF_PACK_DIR = 'models/gguf';

export function ggufUrls(idOrUrl: string): string[] {
  const m = findGguf(idOrUrl);
  if (m) {
    if (!m.urls.every((u) => /^https:/.test(u)))
      throw new Error(
        `${m.id} is not on the hub: put its files in public/${GGUF_PACK_DIR}/ yourself (${m.urls.join(', ')}).`,
      );
    return [...m.urls];
  }
  if (/^https:\/\/.+\.gguf$/.test(idOrUrl)) return [idOrUrl];
  throw new Error(
    `"${idOrUrl}" is neither a GGUF model id (${GGUF_CATALOGUE.map((g) => g.id).join(', ')}) nor an https address ending in .gguf.`,
  );
}

export async function downloadGguf(
  idOrUrl: string,
  outDir: string,
  f: typeof fetch = fetch,
  log: (l: string) => void = console.log,
): Promise<string[]> {
  const dir = join(outDir, 'gguf');
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const url of ggufUrls(idOrUrl)) {
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop()!);
    const target = join(dir, name);
    const tmp = `${target}.partial-${process.pid}`;
    try {
      const res = await f(url);
      if (!res.ok || !res.body) throw new Error(`${url} could not be downloaded (HTTP ${res.status}).`);
      await pipeline(Readable.fromWeb(res.body as unknown as WebReadableStream), createWriteStream(tmp));
      renameSync(tmp, target);
    } finally {
      rmSync(tmp, { force: true });
    }
    log(`  ${name}`);
    written.push(target);
  }
  return written;
}
