import type { ExternalSearch, ScoredPassage } from '../core/ports';

export interface WikipediaOptions {
  /** e.g. 'en' → https://en.wikipedia.org. */
  language?: string;
  /** Injected so tests (and hosts with their own proxy) can replace the network. */
  fetch?: typeof fetch;
}

interface SearchPage {
  pageid?: number;
  title?: string;
  index?: number;
  extract?: string;
}

/**
 * CRAG's web search, narrowed to Wikipedia's public search API (the paper prefers Wikipedia
 * pages too). One request: search, then the plain-text introduction of each hit, so no HTML
 * is ever parsed. Off by default; the corrector only calls it when the user enabled it and
 * the page is online. Results are untrusted text and go through the same refinement.
 */
export function createWikipediaSearch(opts: WikipediaOptions = {}): ExternalSearch {
  const language = opts.language ?? 'en';
  if (!/^[a-z-]{2,12}$/.test(language)) throw new Error(`Wikipedia language code "${language}" is not valid`);
  const doFetch = opts.fetch ?? ((input, init) => fetch(input, init));
  return {
    name: `Wikipedia (${language})`,
    async search(query, k, signal) {
      const params = new URLSearchParams({
        action: 'query',
        format: 'json',
        formatversion: '2',
        origin: '*',
        generator: 'search',
        gsrsearch: query,
        gsrlimit: String(Math.max(1, Math.min(k, 10))),
        prop: 'extracts',
        exintro: '1',
        explaintext: '1',
        exlimit: 'max',
      });
      const url = `https://${language}.wikipedia.org/w/api.php?${params}`;
      const res = await doFetch(url, { signal, headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`Wikipedia search failed: HTTP ${res.status}`);
      const body = (await res.json()) as { query?: { pages?: SearchPage[] | Record<string, SearchPage> } };
      const raw = body.query?.pages ?? [];
      const pages = (Array.isArray(raw) ? raw : Object.values(raw))
        .filter(
          (p): p is Required<Pick<SearchPage, 'pageid' | 'title' | 'extract'>> & SearchPage =>
            typeof p.pageid === 'number' &&
            typeof p.title === 'string' &&
            typeof p.extract === 'string' &&
            p.extract.trim() !== '',
        )
        .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
        .slice(0, k);
      return pages.map(
        (p, rank): ScoredPassage => ({
          id: `wikipedia:${language}:${p.pageid}#0`,
          docId: `wikipedia:${language}:${p.pageid}`,
          title: p.title,
          text: p.extract.trim(),
          index: 0,
          // The API gives a rank, not a similarity; CRAG rescores everything with its evaluator anyway.
          score: 1 / (rank + 1),
        }),
      );
    },
  };
}
