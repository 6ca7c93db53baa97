// The re-rank (core/rerank.ts: the beam search replayed over a finished tree, with core/beam.ts and
// scores.ts), loaded beside the first paint instead of in the entry. The page re-ranks inside its
// reducer, synchronously, and only ever a tree; every tree reaches the page from a chunk loaded
// later (the decode loop, the kept threads), and main.tsx has each of those wait for `ready`, so
// the re-rank is here before the first tree is. As in lazy-decode.ts, only the module's loading
// sits inside the bundler's dynamic import.
import type { RerankFn } from './controller';

export interface LazyRerank {
  rerank: RerankFn;
  /** Settles once the module has loaded; rejects when it could not be loaded. */
  ready: Promise<void>;
}

export function lazyRerank(load: () => Promise<{ rerank: RerankFn }>): LazyRerank {
  let loaded: RerankFn | null = null;
  const ready = load().then((m) => {
    // A file that failed to load resolves to nothing once the page has offered a reload (browser/service-worker.ts).
    if (!m) throw new Error('The re-rank could not be loaded.');
    loaded = m.rerank;
  });
  // Whoever waits for it hears a failure; nobody waiting is not an unhandled rejection.
  ready.catch(() => undefined);
  return {
    rerank: (tree, rank) => {
      // Unreachable from the page (see above); the reducer shows a throw as the answer's error.
      if (!loaded) throw new Error('The re-rank has not loaded yet.');
      return loaded(tree, rank);
    },
    ready,
  };
}
