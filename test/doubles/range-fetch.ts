// A static host for a folder, as a fetch function: answers Range requests with 206 and
// the bytes asked for (or, when told to, ignores Range and sends the whole file), can
// fail chosen requests as a network error would, and counts what it sent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RangeFetchOptions {
  ignoreRange?: boolean;
  /** Throw a network error (TypeError, as fetch does) for a request to this URL. */
  failWhen?: (url: string, range: string | null) => boolean;
}

export interface RangeFetch {
  fetch: typeof fetch;
  requests: Array<{ url: string; range: string | null; bytes: number }>;
  sent(): number;
}

export function rangeFetch(root: string, base: string, opts: RangeFetchOptions = {}): RangeFetch {
  const requests: RangeFetch['requests'] = [];
  const f = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input instanceof Request ? input.url : input);
    const range = new Headers(init?.headers).get('range');
    if (opts.failWhen?.(url, range)) throw new TypeError('Failed to fetch');
    if (!url.startsWith(base)) return new Response('not found', { status: 404 });
    let body: Uint8Array;
    try {
      body = new Uint8Array(readFileSync(join(root, decodeURIComponent(url.slice(base.length)))));
    } catch {
      return new Response('not found', { status: 404 });
    }
    const m = /^bytes=(\d+)-(\d+)$/.exec(range ?? '');
    if (m && !opts.ignoreRange) {
      const part = body.slice(Number(m[1]), Number(m[2]) + 1);
      requests.push({ url, range, bytes: part.length });
      return new Response(part as Uint8Array<ArrayBuffer>, {
        status: 206,
        headers: { 'content-length': String(part.length), 'content-range': `bytes ${m[1]}-${m[2]}/${body.length}` },
      });
    }
    requests.push({ url, range, bytes: body.length });
    return new Response(body as Uint8Array<ArrayBuffer>, {
      status: 200,
      headers: { 'content-length': String(body.length) },
    });
  };
  return { fetch: f as typeof fetch, requests, sent: () => requests.reduce((s, r) => s + r.bytes, 0) };
}
