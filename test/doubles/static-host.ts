// What a static host answers for a file of a folder: the whole file (200), or one byte range of
// it (206 with Content-Range, reading only that range: sharded corpora are hundreds of megabytes
// read a block at a time), or 404 / 403. One answer for the loopback HTTP server the browser tests
// and benches use (test/browser/harness.ts: serveDir) and the fetch double the unit tests use
// (range-fetch.ts).
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';

export interface StaticReply {
  status: 200 | 206 | 403 | 404;
  /** The file served (for its content type), when there is one. */
  file?: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

const text = (status: 403 | 404, body: string): StaticReply => ({
  status,
  headers: {},
  body: new TextEncoder().encode(body),
});

function readRange(file: string, start: number, end: number): Uint8Array {
  const part = Buffer.alloc(end - start + 1);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, part, 0, part.length, start);
  } finally {
    closeSync(fd);
  }
  return part;
}

/**
 * The reply to a request for `path` (decoded, relative to `root`), with the request's Range header:
 * a single `bytes=a-b` range that starts inside the file gets 206 (its end clamped to the file);
 * anything else gets the whole file, as does every request when `ignoreRange` is set.
 */
export function staticReply(
  root: string,
  path: string,
  range: string | null,
  opts: { ignoreRange?: boolean } = {},
): StaticReply {
  const top = resolve(root);
  let file = normalize(join(top, path));
  if (file !== top && !file.startsWith(top + sep)) return text(403, '');
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
  if (!existsSync(file)) return text(404, 'not found');
  const size = statSync(file).size;
  const m = /^bytes=(\d+)-(\d+)$/.exec(range ?? '');
  if (m && !opts.ignoreRange && Number(m[1]) < size) {
    const start = Number(m[1]);
    const end = Math.min(Number(m[2]), size - 1);
    return {
      status: 206,
      file,
      headers: { 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${size}` },
      body: readRange(file, start, end),
    };
  }
  const body = readFileSync(file);
  return { status: 200, file, headers: { 'content-length': String(body.length) }, body };
}
