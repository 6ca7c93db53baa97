import { LexicalIndex } from '../../../src/library/lexical/lexical-index';
import { SNAPSHOT_FORMAT } from '../../../src/library/lexical/word-snapshot';
import 'fake-indexeddb/auto';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FlatIndex } from '../../../src/vector/flat-index';
import { IndexHost } from '../../../src/library/index-host';
import { Library } from '../../../src/library/library';
import { decodePrebuilt } from '../../../src/library/prebuilt';
import { createEmbedder } from '../../../workers/evaluator/embedder';
import { indexFolder } from '../../../scripts/index-folder';
import { fileFetch } from '../../doubles/file-fetch';
import { tinyPdf } from '../../doubles/tiny-pdf';

const ROOT = resolve(__dirname, '../../..');
const embedder = createEmbedder({
  model: { id: 'embedder' },
  source: 'local',
  localModelPath: join(ROOT, 'test/fixtures/models/tiny'),
});
afterAll(() => embedder.dispose());

function counting() {
  let texts = 0;
  return { embed: (t: string[], s?: AbortSignal) => ((texts += t.length), embedder.embed(t, s)), texts: () => texts };
}

describe('npm run index (indexFolder)', () => {
  it('indexes a folder with the library code, and the site loads the result without embedding', async () => {
    const site = mkdtempSync(join(tmpdir(), 'site-'));
    const docs = join(site, 'docs');
    cpSync(join(ROOT, 'public/sample'), docs, { recursive: true });
    mkdirSync(join(docs, 'more'));
    writeFileSync(
      join(docs, 'more/press.html'),
      '<h1>Presses</h1><script>steal()</script><p>Gutenberg used a screw press.</p>',
    );
    writeFileSync(join(docs, 'more/bees.pdf'), tinyPdf([['A queen bee lays eggs in spring.']]));
    writeFileSync(join(docs, 'more/empty.txt'), '');
    writeFileSync(join(docs, 'more/photo.png'), new Uint8Array([0x89, 0x50, 0, 0]));
    const logs: string[] = [];

    const res = await indexFolder({
      folder: docs,
      out: join(site, 'index'),
      embedder,
      model: 'local:embedder',
      log: (l) => logs.push(l),
    });

    expect(res.documents).toBe(7);
    expect(res.refused).toEqual([{ name: 'more/empty.txt', reason: 'the file is empty' }]);
    expect(logs).toContain('skip  more/photo.png (not a text, Markdown, HTML or PDF file)');
    const built = decodePrebuilt(
      readFileSync(join(site, 'index/library.json'), 'utf8'),
      readFileSync(join(site, 'index/vectors.bin')),
    );
    expect(built.passages.length).toBe(res.passages);
    expect(built.vectors.size).toBe(res.passages);
    expect(built.documents.find((d) => d.name === 'more/press.html')?.text).toBe(
      'Presses\n\nGutenberg used a screw press.',
    );

    // The word index is shipped tokenised, so the site loads it instead of building it.
    const snapshot = { format: SNAPSHOT_FORMAT, bytes: readFileSync(join(site, 'index/words.bin')) };
    expect(LexicalIndex.fromSnapshot(snapshot)?.size()).toBe(res.passages);

    const used = counting();
    const host = new IndexHost('flat', (_k, dim) => new FlatIndex(dim));
    const lib = await Library.open({
      embedder: used,
      embedderId: 'hub:embedder',
      index: host,
      dbName: 'indexer-site',
      baseUrl: 'http://site.test/',
      fetch: fileFetch(site),
    });
    expect(await lib.list()).toHaveLength(7);
    expect((await lib.list()).every((d) => d.origin === 'prebuilt')).toBe(true);
    expect(used.texts()).toBe(0);
    const [top] = await lib.retriever.retrieve('waggle dance forager distance', 1);
    expect(top?.title).toBe('How Honeybee Colonies Work');
    expect(used.texts()).toBe(1);
    expect(await host.lexicalSize()).toBe(res.passages);
    lib.close();
  });

  it('fails clearly when there is nothing to index', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'empty-'));
    await expect(indexFolder({ folder: empty, out: join(empty, 'out'), embedder, model: null })).rejects.toThrow(
      /no documents could be indexed/,
    );
    await expect(
      indexFolder({ folder: join(empty, 'nope'), out: join(empty, 'out'), embedder, model: null }),
    ).rejects.toThrow(/is not a folder/);
  });
});

describe('npm run index (command line)', () => {
  const cli = (args: string[]) =>
    spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'scripts/index-folder.ts'), ...args],
      { cwd: ROOT, encoding: 'utf8' },
    );

  /** The sample folder indexed into a new folder with the tiny embedder, and `args` besides. */
  const indexSample = (args: string[]) => {
    const out = mkdtempSync(join(tmpdir(), 'cli-'));
    const run = cli([
      'public/sample',
      ...args,
      '--out',
      out,
      '--model',
      'tiny/embedder',
      '--models-dir',
      'test/fixtures/models',
    ]);
    expect(run.stderr).not.toMatch(/index:/);
    expect(run.status).toBe(0);
    return { out, run };
  };

  it('writes library.json and vectors.bin for a folder and reports what it did', () => {
    const { out, run } = indexSample(['--target', '120', '--overlap', '20']);
    expect(run.stdout).toMatch(/5 documents, \d+ passages, 0 refused/);
    const built = decodePrebuilt(
      readFileSync(join(out, 'library.json'), 'utf8'),
      readFileSync(join(out, 'vectors.bin')),
    );
    expect(built.model).toBe('tiny/embedder');
    expect(built.documents.map((d) => d.name).sort()).toEqual([
      'honeybees.md',
      'printing-press.md',
      'rust-ownership.md',
      'sourdough-bread.md',
      'tides.md',
    ]);
  });

  it('writes a sharded corpus with the passage code a site owner chose (--bits), and the default without it', () => {
    const codesOf = (bits: string[]) =>
      JSON.parse(readFileSync(join(indexSample(['--sharded', ...bits]).out, 'manifest.json'), 'utf8')).codes;
    expect(codesOf(['--bits', '1'])).toMatchObject({ kind: 'rabitq', bits: 1, subBits: 4 });
    expect(codesOf([])).toMatchObject({ kind: 'rabitq', bits: 2, subBits: 4 });
  });

  it('explains bad arguments and exits non-zero', () => {
    const none = cli([]);
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/usage: npm run index -- <folder>/);
    const bad = cli(['public/sample', '--target', 'lots']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--target must be a whole number, got lots/);
    const recall = cli(['public/sample', '--sharded', '--recall', '95']);
    expect(recall.status).toBe(1);
    expect(recall.stderr).toMatch(/--recall must be a fraction above 0 and at most 1 \(for example 0.95\), got 95/);
    expect(cli(['public/sample', '--recall', '0.9']).stderr).toMatch(/--recall goes with --sharded or --parquet/);
    expect(cli(['public/sample', '--sharded', '--bits', '3']).stderr).toMatch(/--bits must be 1, 2 or 4/);
    expect(cli(['public/sample', '--bits', '1']).stderr).toMatch(/--bits goes with --sharded or --parquet/);
    expect(cli(['--help']).stdout).toMatch(/usage:/);
  });
});
