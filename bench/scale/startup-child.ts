// One library start-up in a fresh process, so its peak memory (max RSS) is its own:
//   floats-compact   what start-up did before: every document's float32 vectors read (IndexedDB's
//                    allVectors: all at once) and encoded into the compact index again;
//   floats-flat      the same read into the exact flat index (what a small library does);
//   rebuild          a damaged saved state: rebuilt from the floats one document at a time;
//   saved            the compact index re-opened from its own files and reconciled with the
//                    documents (their passage counts), no float read; then one document added.
//   idle             nothing: the process's own footprint, subtracted from the others.
// Prints one JSON line.
import { readFileSync, statSync } from 'node:fs';
/** This process's peak resident memory (VmHWM: unlike ru_maxrss, not inherited from the forking parent). */
const peakRss = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) * 1024;
import { join } from 'node:path';
import { FlatIndex } from '../../src/vector/flat-index';
import { compactFileNames, compactPersistence } from '../../src/library/compact-persistence';
import { NodeFile, nodeFolder } from './node-file';
import { embeddingModel, embeddingVectors } from './vectors';

const [mode, dir, nText, dimText, perDocText] = process.argv.slice(2) as [string, string, string, string, string];
const n = Number(nText),
  dim = Number(dimText),
  perDoc = Number(perDocText);
const idOf = (i: number) => `d${Math.floor(i / perDoc)}#${i % perDoc}`;

async function main(): Promise<void> {
  const t0 = performance.now();
  let index: {
    search(q: Float32Array, k: number): { id: string }[];
    size(): number;
    add(ids: string[], v: Float32Array[]): void;
  } | null = null;
  let extra = '';
  if (mode === 'floats-compact' || mode === 'floats-flat') {
    // allVectors(): every record in memory at once, then added document by document.
    const all = new Float32Array(readFileSync(join(dir, 'floats.bin')).buffer);
    const target =
      mode === 'floats-flat'
        ? new FlatIndex(dim)
        : (await compactPersistence(nodeFolder(dir)).create('rebuilt', 'bench', dim))!;
    for (let d = 0; d * perDoc < n; d++) {
      const ids: string[] = [],
        rows: Float32Array[] = [];
      for (let i = d * perDoc; i < Math.min(n, (d + 1) * perDoc); i++) {
        ids.push(idOf(i));
        rows.push(all.subarray(i * dim, (i + 1) * dim));
      }
      target.add(ids, rows);
    }
    index = target;
  } else if (mode === 'rebuild') {
    const floats = new NodeFile(join(dir, 'floats.bin'));
    const target = (await compactPersistence(nodeFolder(dir)).create('rebuilt', 'bench', dim))!;
    const buf = new Float32Array(perDoc * dim);
    for (let d = 0; d * perDoc < n; d++) {
      const count = Math.min(perDoc, n - d * perDoc);
      floats.read(d * perDoc * dim * 4, new Uint8Array(buf.buffer, 0, count * dim * 4));
      target.add(
        Array.from({ length: count }, (_, i) => idOf(d * perDoc + i)),
        Array.from({ length: count }, (_, i) => buf.slice(i * dim, (i + 1) * dim)),
      );
    }
    index = target;
  } else if (mode === 'saved') {
    const opened = (await compactPersistence(nodeFolder(dir)).open('lib', 'bench'))!;
    const openMs = performance.now() - t0;
    // Reconciled as catalog.loadVectors does: ids grouped by document, counts compared.
    const want = new Map<string, number>();
    for (let d = 0; d * perDoc < n; d++) want.set(`d${d}`, Math.min(perDoc, n - d * perDoc));
    const held = new Map<string, string[]>();
    for (const id of opened.idList()) {
      const doc = id.slice(0, id.lastIndexOf('#'));
      const list = held.get(doc);
      if (list) list.push(id);
      else held.set(doc, [id]);
    }
    let stale = 0;
    for (const [doc, ids] of held) if (want.get(doc) !== ids.length) stale += ids.length;
    extra = `"openMs":${openMs.toFixed(0)},"stale":${stale},`;
    index = opened;
  }
  const ms = performance.now() - t0;
  // A fresh draw from the vectors' model (made after the clock stopped).
  const query = embeddingVectors(embeddingModel(dim, 1), 1, dim).row(0);
  const top = index ? index.search(query, 3).map((h) => h.id) : [];
  let addMs = 0,
    grew = 0;
  if (mode === 'saved' && index) {
    // One more document of 20 passages into the re-opened library.
    const names = compactFileNames('lib');
    const before = names.reduce((s, f) => s + statSync(join(dir, f)).size, 0);
    const t = performance.now();
    index.add(
      Array.from({ length: 20 }, (_, i) => `new#${i}`),
      Array.from({ length: 20 }, (_, i) => query.map((x, j) => x + Math.cos(i * j))),
    );
    addMs = performance.now() - t;
    grew = names.reduce((s, f) => s + statSync(join(dir, f)).size, 0) - before;
  }
  const rss = peakRss();
  console.log(
    `{"mode":"${mode}","ms":${ms.toFixed(0)},${extra}"size":${index?.size() ?? 0},"top":${JSON.stringify(top)},"maxRss":${rss},"addMs":${addMs.toFixed(1)},"addBytes":${grew}}`,
  );
}

void main();
