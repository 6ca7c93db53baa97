// The site's sharded corpus as the library uses it: searched beside the user's documents
// through the same retriever, silent when the site ships none, and refused (with a reason)
// when it was embedded by another model.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSharded, type ShardedRow } from '../../../../scripts/sharded/write-sharded';
import { mergeHits } from '../../../../src/library/sharded/site-corpus';
import { embedText } from '../../../doubles/hash-embedder';
import { rangeFetch } from '../../../doubles/range-fetch';
import { library } from '../open-library';

const SITE = 'https://docs.example/guide/';
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'site-corpus-'));
  const rows: ShardedRow[] = ['lighthouse lens', 'glacier ice', 'orchard apples', 'harbour cranes'].flatMap(
    (topic, d) =>
      Array.from({ length: 30 }, (_, p) => {
        const text =
          p === 7 && d === 0
            ? 'A Fresnel lens lets the lighthouse beam reach ships forty kilometres out.'
            : `Notes about ${topic}, part ${p}.`;
        const title = `${topic} guide`;
        // 64-d like the library's default HashEmbedder, and the same "title\ntext" it embeds.
        return {
          id: `${d}#${p}`,
          docId: `d${d}`,
          title,
          text,
          index: p,
          embedding: embedText(`${title}\n${text}`, 64),
        };
      }),
  );
  await writeSharded({
    out: join(root, 'index'),
    model: 'hash-64',
    source: {
      rows: async function* () {
        yield* rows;
      },
    },
    lists: 6,
    wordShards: 8,
  });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('site corpus beside the library', () => {
  it('retrieves a passage of the site corpus and one of the user’s documents through one retriever', async () => {
    const lib = await library({ baseUrl: SITE, fetch: rangeFetch(root, SITE).fetch, embedderId: 'hash-64' });
    await lib.addText('Bees', 'Forager bees perform a waggle dance to show where flowers are.');
    const [site] = await lib.retriever.retrieve('how far does the lighthouse beam reach with a Fresnel lens', 3);
    expect(site).toMatchObject({ id: '0#7', title: 'lighthouse lens guide', docId: 'd0' });
    const [mine] = await lib.retriever.retrieve('waggle dance of forager bees', 3);
    expect(mine!.title).toBe('Bees');
    expect(lib.warnings).toEqual([]);
  });

  it('costs one request, and says nothing, when the site ships no sharded corpus', async () => {
    const host = rangeFetch(join(root, 'nowhere'), SITE);
    const asked: string[] = [];
    const lib = await library({
      baseUrl: SITE,
      fetch: ((url: string, init?: RequestInit) => (asked.push(String(url)), host.fetch(url, init))) as typeof fetch,
    });
    await lib.addText('Bees', 'Forager bees perform a waggle dance to show where flowers are.');
    await lib.retriever.retrieve('bees', 2);
    await lib.retriever.retrieve('dance', 2);
    expect(asked).toEqual([`${SITE}index/manifest.json`]);
    expect(lib.warnings).toEqual([]);
  });

  it('leaves out a corpus embedded by another model, and says why', async () => {
    const lib = await library({ baseUrl: SITE, fetch: rangeFetch(root, SITE).fetch, embedderId: 'other/model' });
    const hits = await lib.retriever.retrieve('Fresnel lens lighthouse', 3);
    expect(hits).toEqual([]);
    expect(lib.warnings).toEqual([
      "the site's corpus was embedded with hash-64, the page embeds questions with other/model: its passages are left out until the same model is chosen",
    ]);
  });

  it('says once that a corpus of an older format must be rebuilt, and leaves it out without asking again', async () => {
    const old = join(root, 'old');
    cpSync(join(root, 'index'), join(old, 'index'), { recursive: true });
    const m = JSON.parse(readFileSync(join(old, 'index/manifest.json'), 'utf8'));
    writeFileSync(join(old, 'index/manifest.json'), JSON.stringify({ ...m, version: 2 }));
    const host = rangeFetch(old, SITE);
    const lib = await library({ baseUrl: SITE, fetch: host.fetch, embedderId: 'hash-64' });
    await lib.addText('Bees', 'Forager bees perform a waggle dance to show where flowers are.');
    expect((await lib.retriever.retrieve('Fresnel lens lighthouse', 3)).map((h) => h.title)).not.toContain(
      'lighthouse lens guide',
    );
    await lib.retriever.retrieve('waggle dance', 3);
    expect(lib.warnings).toEqual([
      "the site's sharded corpus is format version 2, and this page reads version 4, 5 or 6: the site must rebuild it with `npm run index -- --sharded` (or `npm run index -- --parquet`); until then its passages are left out",
    ]);
    expect(host.requests.map((r) => r.url)).toEqual([`${SITE}index/manifest.json`]);
  });

  it('merges the two fused lists by score, the library first on an id both hold', () => {
    const merged = mergeHits(
      [
        { id: 'a', score: 0.5 },
        { id: 'b', score: 0.2 },
      ],
      [
        { id: 'c', score: 0.4 },
        { id: 'a', score: 0.9 },
      ],
      3,
    );
    expect(merged).toEqual([
      { id: 'a', score: 0.5 },
      { id: 'c', score: 0.4 },
      { id: 'b', score: 0.2 },
    ]);
  });
});
