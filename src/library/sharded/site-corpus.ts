// The site's sharded corpus (`index/manifest.json`, written by `npm run index -- --sharded`
// or `--parquet`), opened on the first question rather than at start-up, and searched
// beside the user's own library. Its blocks are kept in Cache Storage, so questions asked
// before keep working offline.
import type { FusedHit, SearchMode } from '../../core/fusion';
import type { Passage } from '../../core/ports';
import { PREBUILT_DIR, sameModel } from '../prebuilt';
import { openBlockCache } from './block-cache';
import { FormatVersionError } from './format/manifest';
import { ShardedCorpus } from './reader';
import { errorMessage } from '../../core/errors';

export interface SiteCorpusOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  embedderId?: string;
  /** A problem worth telling the user (wrong model, corrupt or unreachable blocks), once per message. */
  onProblem?: (message: string) => void;
  /** The corpus opened and is searched: its size, for the page to say so. */
  onOpen?: (about: { documents: number; passages: number }) => void;
  nprobe?: number;
}

export interface SiteCorpusSearch {
  hits: FusedHit[];
  passages: Map<string, Passage>;
}

export type SiteCorpus = (req: {
  vector: Float32Array | null;
  text: string;
  mode: SearchMode;
  limit: number;
}) => Promise<SiteCorpusSearch>;

const NONE: SiteCorpusSearch = { hits: [], passages: new Map() };

/** A search function over the site's sharded corpus; it finds nothing when the site ships none. */
export function siteCorpus(opts: SiteCorpusOptions): SiteCorpus {
  let opened: Promise<ShardedCorpus | null> | null = null;
  const said = new Set<string>();
  const tell = (m: string) => {
    if (said.has(m)) return;
    said.add(m);
    opts.onProblem?.(m);
  };
  const open = (): Promise<ShardedCorpus | null> => {
    if (!opts.baseUrl) return Promise.resolve(null);
    opened ??= (async () => {
      const fetchFn = opts.fetch ?? globalThis.fetch.bind(globalThis);
      const dir = new URL(PREBUILT_DIR, opts.baseUrl).href;
      try {
        const corpus = await ShardedCorpus.open(dir, { fetch: fetchFn, cache: await openBlockCache() });
        const model = corpus.manifest.model;
        if (model && opts.embedderId && !sameModel(model, opts.embedderId)) {
          tell(
            `the site's corpus was embedded with ${model}, the page embeds questions with ${opts.embedderId}: its passages are left out until the same model is chosen`,
          );
          return null;
        }
        opts.onOpen?.({ documents: corpus.manifest.documents, passages: corpus.manifest.passages });
        return corpus;
      } catch (e) {
        const m = errorMessage(e);
        // No manifest (404, or a dev server's index.html) means no sharded corpus: nothing to say, nothing to retry.
        if (/HTTP 404|not a sharded corpus|JSON/.test(m)) return null;
        tell(m);
        // Written in a format this page cannot read: asking again will not change that.
        if (e instanceof FormatVersionError) return null;
        // Unreachable: try again on the next question (the host may come back).
        opened = null;
        return null;
      }
    })();
    return opened;
  };
  return async (req) => {
    const corpus = await open();
    if (!corpus) return NONE;
    try {
      const res = await corpus.search({
        vector: req.vector,
        text: req.text,
        k: req.limit,
        mode: req.mode,
        ...(opts.nprobe ? { nprobe: opts.nprobe } : {}),
      });
      for (const p of res.problems) tell(`site corpus: ${p}`);
      const passages = new Map<string, Passage>();
      const hits = res.hits.map(({ passage, ...h }) => {
        passages.set(passage.id, passage);
        return { ...h, id: passage.id };
      });
      return { hits, passages };
    } catch (e) {
      tell(`site corpus: ${errorMessage(e)}`);
      return NONE;
    }
  };
}

/** The library's and the corpus's fused lists are on the same scale (weighted cosine and ideal-scaled BM25): merged by score. */
export function mergeHits(local: readonly FusedHit[], remote: readonly FusedHit[], limit: number): FusedHit[] {
  const seen = new Set(local.map((h) => h.id));
  return [...local, ...remote.filter((h) => !seen.has(h.id))].sort((a, b) => b.score - a.score).slice(0, limit);
}
