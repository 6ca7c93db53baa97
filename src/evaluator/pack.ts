// Finds a local evaluator model pack by itself (source 'auto'), as the generator does: an
// offline demo only has to serve models/ beside the page. A model counts as present when
// `models/evaluator-pack.json` (written by `npm run models`) lists it, or else when its
// `models/<id>/config.json` parses as JSON: static hosts that answer every path with the
// app's index.html (SPA fallback) must not pass for a pack.
import type { EvaluatorConfig, SourceReport } from './config';

export const EVALUATOR_PACK_MANIFEST = 'evaluator-pack.json';

export interface EvaluatorPackManifest {
  format: 'selfrag-evaluator-pack';
  version: 1;
  /** Model ids present under the pack folder, with the weight variants downloaded. */
  models: { id: string; dtypes: string[] }[];
}

type Fetch = (url: string) => Promise<Pick<Response, 'ok' | 'json'>>;

async function getJson(f: Fetch, url: string): Promise<unknown> {
  try {
    const res = await f(url);
    return res.ok ? await res.json() : undefined;
  } catch {
    return undefined; // unreachable or not JSON: not there
  }
}

function manifestIds(json: unknown): Set<string> {
  const models = (json as Partial<EvaluatorPackManifest> | undefined)?.models;
  if (!Array.isArray(models)) return new Set();
  return new Set(models.flatMap((m) => (m && typeof m.id === 'string' ? [m.id] : [])));
}

/**
 * Turns source 'auto' into 'local' or 'hub' by looking under `config.localModelPath` (resolved
 * against `pageUrl`); other sources pass through. Never throws: a failed check means the hub.
 */
export async function resolveModelSource(
  config: EvaluatorConfig,
  pageUrl: string,
  fetchFn: Fetch = (url) => fetch(url),
): Promise<{ config: EvaluatorConfig; source: SourceReport }> {
  const path = config.localModelPath ?? '';
  if (config.source === 'local') {
    return {
      config,
      source: { source: 'local', reason: `The evaluator models come from the local model pack at ${path}.` },
    };
  }
  if (config.source === 'hub' || !config.localModelPath) {
    return {
      config: { ...config, source: 'hub' },
      source: { source: 'hub', reason: 'The evaluator models come from the Hugging Face hub.' },
    };
  }
  const root = new URL(path.endsWith('/') ? path : `${path}/`, pageUrl);
  const ids = [...new Set([config.embedder.id, config.reranker.id, config.nli.id])];
  const listed = manifestIds(await getJson(fetchFn, new URL(EVALUATOR_PACK_MANIFEST, root).href));
  const present = await Promise.all(
    ids.map(async (id) => {
      if (listed.has(id)) return true;
      const cfg = await getJson(fetchFn, new URL(`${id}/config.json`, root).href);
      return typeof cfg === 'object' && cfg !== null && !Array.isArray(cfg);
    }),
  );
  const missing = ids.filter((_, i) => !present[i]);
  if (missing.length === 0) {
    return {
      config: { ...config, source: 'local' },
      source: { source: 'local', reason: `Found the evaluator models in the local model pack at ${path}.` },
    };
  }
  const what =
    missing.length === ids.length ? 'No local model pack' : `The local model pack lacks ${missing.join(', ')}`;
  return {
    config: { ...config, source: 'hub' },
    source: { source: 'hub', reason: `${what} at ${path}; the evaluator models come from the Hugging Face hub.` },
  };
}
