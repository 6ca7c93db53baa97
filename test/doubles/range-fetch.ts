// A static host for a folder, as a fetch function (no socket): answers as test/doubles/static-host.ts
// does (Range requests with 206 and the bytes asked for, or, when told to, the whole file), can fail
// chosen requests as a network error would, and counts what it sent.
import { staticReply } from './static-host';

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
    const reply = staticReply(root, decodeURIComponent(url.slice(base.length)), range, opts);
    if (reply.status !== 200 && reply.status !== 206) return new Response('not found', { status: 404 });
    requests.push({ url, range, bytes: reply.body.length });
    return new Response(reply.body as Uint8Array<ArrayBuffer>, { status: reply.status, headers: reply.headers });
  };
  return { fetch: f as typeof fetch, requests, sent: () => requests.reduce((s, r) => s + r.bytes, 0) };
}
