// Finds a local evaluator model pack by itself (source 'auto'), as the generator does: an
// offline demo only has to serve models/ beside the page (the critic ships with the site). A model counts as present when
// `models/evaluator-pack.json` (written by `npm run models`) lists it, or else when its
// `models/<id>/config.json` parses as JSON: static hosts that answer every path with the
// app's index.html (SPA fallback) must not pass for a pack.
import { type EvaluatorConfig, isShippedModel, SHIPPED_NLI, SHIPPED_RERANKER, type SourceReport } from './config';

export const EVALUATOR_PACK_MANIFEST = 'evaluator-pack.json';

export interface EvaluatorPackManifest {
  format: 'selfrag-evaluator-pack';
  version: 1;
  /**
   * Model ids present under the pack folder, with the weight variants downloaded; `mirrors` names
   * the hub model whose weights a folder holds (a pack's `real/embedder` is `Xenova/all-MiniLM-L6-v2`),
   * so vectors it made count as that model's wherever the page later gets it from.
   */
  models: { id: string; dtypes: string[]; mirrors?: string }[];
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

function manifestModels(json: unknown): EvaluatorPackManifest['models'] {
  const models = (json as Partial<EvaluatorPackManifest> | undefined)?.models;
  return Array.isArray(models) ? models.filter((m) => m && typeof m.id === 'string') : [];
}

const manifestIds = (json: unknown): Set<string> => new Set(manifestModels(json).map((m) => m.id));

/** The hub model a pack's model mirrors, as its manifest says; its own id when it says nothing. */
function mirrorOf(json: unknown, id: string): string {
  const m = manifestModels(json).find((x) => x.id === id);
  return typeof m?.mirrors === 'string' && m.mirrors ? m.mirrors : id;
}

type Role = 'embedder' | 'reranker' | 'nli';

/**
 * Turns source 'auto' into 'local' or 'hub' by looking under `config.localModelPath` (resolved
 * against `pageUrl`); other sources pass through. The critic the site ships (isShippedModel) is
 * never looked for: it loads from `shippedModelPath` whatever the source. A local pack that lacks a
 * critic of its own (source 'local', e.g. `?modelPack=` with only an embedder) uses the shipped one
 * for that role. Never throws: a failed check means the hub (or, for a critic, the shipped one).
 */
export async function resolveModelSource(
  config: EvaluatorConfig,
  pageUrl: string,
  fetchFn: Fetch = (url) => fetch(url),
): Promise<{ config: EvaluatorConfig; source: SourceReport }> {
  const path = config.localModelPath ?? '';
  if (config.source === 'hub' || !config.localModelPath) {
    return {
      config: { ...config, source: 'hub' },
      source: { source: 'hub', reason: 'The evaluator models come from the Hugging Face hub.' },
    };
  }
  const root = new URL(path.endsWith('/') ? path : `${path}/`, pageUrl);
  const manifest = await getJson(fetchFn, new URL(EVALUATOR_PACK_MANIFEST, root).href);
  const embedderIs = mirrorOf(manifest, config.embedder.id);
  const mirror = embedderIs !== config.embedder.id ? { embedderIs } : {};
  const own = (['embedder', 'reranker', 'nli'] as Role[]).filter((r) => !isShippedModel(config[r].id));
  if (config.source === 'local') {
    const critics = own.filter((r) => r !== 'embedder');
    const found = critics.length
      ? await presentIn(
          root,
          manifest,
          critics.map((r) => config[r].id),
          fetchFn,
        )
      : [];
    const borrowed = critics.filter((_, i) => !found[i]);
    const shipped = { reranker: { id: SHIPPED_RERANKER, dtype: 'q8' }, nli: { id: SHIPPED_NLI, dtype: 'q8' } } as const;
    const patch = Object.fromEntries(borrowed.map((r) => [r, shipped[r as 'reranker' | 'nli']]));
    const note = borrowed.length ? `; it holds no ${borrowed.join(' or ')} model, so the site's own critic judges` : '';
    return {
      config: { ...config, ...patch },
      source: {
        source: 'local',
        reason: `The evaluator models come from the local model pack at ${path}${note}.`,
        ...mirror,
      },
    };
  }
  const ids = [...new Set(own.map((r) => config[r].id))];
  const present = await presentIn(root, manifest, ids, fetchFn);
  const missing = ids.filter((_, i) => !present[i]);
  if (missing.length === 0) {
    return {
      config: { ...config, source: 'local' },
      source: { source: 'local', reason: `Found the evaluator models in the local model pack at ${path}.`, ...mirror },
    };
  }
  const what =
    missing.length === ids.length ? 'No local model pack' : `The local model pack lacks ${missing.join(', ')}`;
  return {
    config: { ...config, source: 'hub' },
    source: { source: 'hub', reason: `${what} at ${path}; the evaluator models come from the Hugging Face hub.` },
  };
}

/** Whether each model is in the pack: listed in its manifest, or its config.json parses as an object. */
async function presentIn(root: URL, manifest: unknown, ids: string[], fetchFn: Fetch): Promise<boolean[]> {
  const listed = manifestIds(manifest);
  return Promise.all(
    ids.map(async (id) => {
      if (listed.has(id)) return true;
      const cfg = await getJson(fetchFn, new URL(`${id}/config.json`, root).href);
      return typeof cfg === 'object' && cfg !== null && !Array.isArray(cfg);
    }),
  );
}
