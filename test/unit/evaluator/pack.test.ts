import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EMBEDDER,
  HUB_NLI,
  HUB_RERANKER,
  resolveEvaluatorConfig,
  SHIPPED_NLI,
  SHIPPED_RERANKER,
  type EvaluatorConfigInput,
} from '../../../src/evaluator/config';
import { resolveModelSource } from '../../../src/evaluator/pack';

const PAGE = 'https://example.org/apps/rag/index.html';
// The hub's critic chosen (`?critic=hub`): a pack must then bring all three models.
const config = (input: EvaluatorConfigInput = {}) =>
  resolveEvaluatorConfig({ reranker: HUB_RERANKER, nli: HUB_NLI, ...input }, PAGE);
// The site's own critic: the default (a pack then brings the embedder alone).
const shippedConfig = (input: EvaluatorConfigInput = {}) =>
  resolveEvaluatorConfig({ reranker: SHIPPED_RERANKER, nli: SHIPPED_NLI, ...input }, PAGE);

/** A static host: the given paths answer with their body; anything else 404, or the app's page with `spa`. */
function host(files: Record<string, string>, opts: { spa?: boolean; down?: boolean } = {}) {
  const asked: string[] = [];
  const f = async (url: string) => {
    asked.push(new URL(url).pathname);
    if (opts.down) throw new TypeError('Failed to fetch');
    const path = new URL(url).pathname;
    if (path in files) return new Response(files[path]);
    return opts.spa
      ? new Response('<!doctype html><html>the app</html>', { headers: { 'content-type': 'text/html' } })
      : new Response('not found', { status: 404 });
  };
  return { f, asked };
}

const cfg = (id: string) => ({ [`/apps/rag/models/${id}/config.json`]: '{"model_type":"bert"}' });
const allThree = { ...cfg(DEFAULT_EMBEDDER), ...cfg(HUB_RERANKER), ...cfg(HUB_NLI) };

describe('finding the local evaluator pack (source auto)', () => {
  it('uses the pack when its manifest lists the three models, without probing each', async () => {
    const manifest = {
      format: 'selfrag-evaluator-pack',
      version: 1,
      models: [DEFAULT_EMBEDDER, HUB_RERANKER, HUB_NLI].map((id) => ({ id, dtypes: ['fp32', 'q8'] })),
    };
    const h = host({ '/apps/rag/models/evaluator-pack.json': JSON.stringify(manifest) });
    const r = await resolveModelSource(config(), PAGE, h.f);
    expect(r.config.source).toBe('local');
    expect(r.source).toEqual({
      source: 'local',
      reason: 'Found the evaluator models in the local model pack at /apps/rag/models/.',
    });
    expect(h.asked).toEqual(['/apps/rag/models/evaluator-pack.json']);
  });

  it('uses a pack copied by hand (no manifest) when each model has its config.json', async () => {
    const r = await resolveModelSource(config(), PAGE, host(allThree).f);
    expect(r.config.source).toBe('local');
  });

  it('uses the hub, naming what is missing, when the pack lacks a model', async () => {
    const { [`/apps/rag/models/${HUB_NLI}/config.json`]: _nli, ...two } = allThree;
    const r = await resolveModelSource(config(), PAGE, host(two).f);
    expect(r.config.source).toBe('hub');
    expect(r.source.reason).toBe(
      `The local model pack lacks ${HUB_NLI} at /apps/rag/models/; the evaluator models come from the Hugging Face hub.`,
    );
  });

  it('uses the hub when there is no pack, when the host answers every path with the app page, or when it cannot be reached', async () => {
    for (const h of [host({}), host({}, { spa: true }), host(allThree, { down: true })]) {
      const r = await resolveModelSource(config(), PAGE, h.f);
      expect(r.config.source).toBe('hub');
      expect(r.source.reason).toMatch(
        /^No local model pack at \/apps\/rag\/models\/; the evaluator models come from the Hugging Face hub\.$/,
      );
    }
  });

  it('checks the configured model ids, so a pack of other models does not count', async () => {
    const r = await resolveModelSource(config({ embedder: 'Xenova/bge-small-en-v1.5' }), PAGE, host(allThree).f);
    expect(r.config.source).toBe('hub');
    expect(r.source.reason).toMatch(/lacks Xenova\/bge-small-en-v1\.5/);
  });

  it('leaves an explicit source alone: the hub asks nothing, a pack only its manifest', async () => {
    const h = host(allThree);
    expect((await resolveModelSource(config({ source: 'hub' }), PAGE, h.f)).config.source).toBe('hub');
    expect(h.asked).toEqual([]);
    const local = await resolveModelSource(shippedConfig({ source: 'local', embedder: 'tiny/embedder' }), PAGE, h.f);
    expect(local.config.source).toBe('local');
    expect(local.source.reason).toMatch(/local model pack at \/apps\/rag\/models\//);
    expect(local.source.embedderIs).toBeUndefined();
    expect(h.asked).toEqual(['/apps/rag/models/evaluator-pack.json']);
  });

  it('names the hub model a pack mirrors, so its vectors count as that model at any address', async () => {
    const manifest = {
      format: 'selfrag-evaluator-pack',
      version: 1,
      models: [{ id: 'real/embedder', dtypes: ['fp32'], mirrors: DEFAULT_EMBEDDER }],
    };
    const h = host({ '/apps/rag/models/evaluator-pack.json': JSON.stringify(manifest) });
    const r = await resolveModelSource(shippedConfig({ source: 'local', embedder: 'real/embedder' }), PAGE, h.f);
    expect(r.config.embedder.id).toBe('real/embedder');
    expect(r.source.embedderIs).toBe(DEFAULT_EMBEDDER);
    // Offline, or no manifest: the pack's own name.
    const down = await resolveModelSource(
      shippedConfig({ source: 'local', embedder: 'real/embedder' }),
      PAGE,
      host({}, { down: true }).f,
    );
    expect(down.source.embedderIs).toBeUndefined();
  });
});

describe('the critic the site ships', () => {
  it('is never looked for in the pack: chosen, it needs a pack with only the embedder', async () => {
    const c = shippedConfig();
    expect([c.reranker, c.nli]).toEqual([
      { id: SHIPPED_RERANKER, dtype: 'q8' },
      { id: SHIPPED_NLI, dtype: 'q8' },
    ]);
    expect(c.shippedModelPath).toBe('/apps/rag/critic/');
    const h = host(cfg(DEFAULT_EMBEDDER));
    const r = await resolveModelSource(c, PAGE, h.f);
    expect(r.config.source).toBe('local');
    expect(h.asked).toEqual([
      '/apps/rag/models/evaluator-pack.json',
      `/apps/rag/models/${DEFAULT_EMBEDDER}/config.json`,
    ]);
    // No pack at all: the embedder comes from the hub, the critic still from the site.
    const none = await resolveModelSource(c, PAGE, host({}).f);
    expect(none.config.source).toBe('hub');
    expect(none.config.reranker.id).toBe(SHIPPED_RERANKER);
  });

  it("judges with the site's critic when a local pack has no critic of its own, and keeps a pack's own critic", async () => {
    const input = { source: 'local' as const, embedder: 'real/embedder', reranker: 'real/reranker', nli: 'real/nli' };
    const bare = await resolveModelSource(shippedConfig(input), PAGE, host({}).f);
    expect(bare.config.embedder.id).toBe('real/embedder');
    expect([bare.config.reranker.id, bare.config.nli.id]).toEqual([SHIPPED_RERANKER, SHIPPED_NLI]);
    expect(bare.source.reason).toBe(
      "The evaluator models come from the local model pack at /apps/rag/models/; it holds no reranker or nli model, so the site's own critic judges.",
    );
    const full = await resolveModelSource(
      shippedConfig(input),
      PAGE,
      host({ ...cfg('real/reranker'), ...cfg('real/nli') }).f,
    );
    expect([full.config.reranker.id, full.config.nli.id]).toEqual(['real/reranker', 'real/nli']);
  });
});
