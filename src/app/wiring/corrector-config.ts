// Builds Self-CRAG's corrector from the user's CRAG settings. The outside source is only
// created when the user switched it on, and the corrector asks `online()` before each use,
// so with the switch off or the page offline no request ever leaves the page.
import { createCorrector } from '../../core/crag/corrector';
import { resolveCragSettings, type CragSettings } from '../../core/crag/settings';
import type { Corrector, ExternalSearch, Retriever, Writer } from '../../core/ports';
import type { CragChoice } from '../persist/settings';

export interface CorrectorParts {
  /** The retrieval evaluator: relevance probability of each text for the question. */
  score: (question: string, texts: string[], signal?: AbortSignal) => Promise<number[]>;
  writer: Writer;
  retriever: Retriever;
  /** Whether the page is online now (navigator.onLine in the browser). */
  online: () => boolean;
  /** Makes the outside source; only called when the user enabled it. */
  external: () => Promise<ExternalSearch>;
}

export async function buildCorrector(parts: CorrectorParts, crag: CragChoice): Promise<Corrector> {
  // Throws a RangeError naming the field for settings that cannot work (e.g. lower above upper).
  const settings: CragSettings = resolveCragSettings(crag);
  const external = settings.externalEnabled ? await parts.external() : undefined;
  return createCorrector({
    score: parts.score,
    writer: parts.writer,
    retriever: parts.retriever,
    online: parts.online,
    settings,
    ...(external ? { external } : {}),
  });
}
