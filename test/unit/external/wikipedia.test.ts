import { describe, expect, it } from 'vitest';
import { createWikipediaSearch } from '../../../src/external/wikipedia';

function fakeFetch(status: number, body: unknown) {
  const urls: string[] = [];
  const f = (async (input: RequestInfo | URL) => {
    urls.push(String(input));
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { f, urls };
}

describe('Wikipedia external search (fake fetch, no network)', () => {
  it('asks for plain-text intros of the search hits and returns them in search order', async () => {
    const { f, urls } = fakeFetch(200, {
      query: {
        pages: [
          { pageid: 2, title: 'Second', index: 2, extract: 'Second page.' },
          { pageid: 1, title: 'Ada Lovelace', index: 1, extract: ' Ada was a mathematician. ' },
          { pageid: 3, title: 'Empty', index: 3, extract: '' },
        ],
      },
    });
    const results = await createWikipediaSearch({ fetch: f }).search('Ada Lovelace, born', 3);
    const url = new URL(urls[0] ?? '');
    expect(url.host).toBe('en.wikipedia.org');
    expect(url.searchParams.get('gsrsearch')).toBe('Ada Lovelace, born');
    expect(url.searchParams.get('explaintext')).toBe('1');
    expect(url.searchParams.get('gsrlimit')).toBe('3');
    expect(results.map((r) => [r.id, r.title, r.text])).toEqual([
      ['wikipedia:en:1#0', 'Ada Lovelace', 'Ada was a mathematician.'],
      ['wikipedia:en:2#0', 'Second', 'Second page.'],
    ]);
  });

  it('returns nothing when there are no hits', async () => {
    const { f } = fakeFetch(200, { batchcomplete: true });
    expect(await createWikipediaSearch({ fetch: f }).search('zzz', 5)).toEqual([]);
  });

  it('reports an HTTP failure clearly', async () => {
    const { f } = fakeFetch(503, {});
    await expect(createWikipediaSearch({ fetch: f }).search('x', 2)).rejects.toThrow(
      'Wikipedia search failed: HTTP 503',
    );
  });

  it('rejects an invalid language code', () => {
    expect(() => createWikipediaSearch({ language: 'en.evil.com/' })).toThrow(/not valid/);
  });
});
