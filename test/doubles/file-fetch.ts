// A fetch over a local folder, as if it were served at `base`; anything else is a 404.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export function fileFetch(root: string, base = 'http://site.test/'): typeof fetch & { requests: string[] } {
  const requests: string[] = [];
  const f = async (input: string | URL | Request): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    requests.push(url);
    if (!url.startsWith(base)) return new Response('not found', { status: 404 });
    try {
      return new Response(await readFile(join(root, decodeURIComponent(url.slice(base.length)))));
    } catch {
      return new Response('not found', { status: 404 });
    }
  };
  return Object.assign(f as typeof fetch, { requests });
}
