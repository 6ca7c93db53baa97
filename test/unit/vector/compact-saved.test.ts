// The compact index's saved state (vector/compact-journal.ts through library/compact-persistence.ts):
// what comes back after a reload answers exactly as before, changes after a re-open are appended
// (not rewritten), and a damaged state is refused by name instead of answering wrongly.
import { describe, expect, it } from 'vitest';
import { CompactIndex, TRAIN_AT } from '../../../src/vector/compact-index';
import { CompactStateError } from '../../../src/vector/compact-journal';
import { compactFileNames, compactPersistence } from '../../../src/library/compact-persistence';
import { mulberry32 } from '../../../src/core/mulberry32';
import { MemoryFolder } from '../../doubles/memory-folder';

const DIM = 64;
const OPTS = { candidates: 300, rescore: 40 };

/** Topic clusters around a shared offset (the shape sentence embeddings have). */
function clustered(n: number, seed: number, topics = 30): Float32Array[] {
  const r = mulberry32(seed);
  const g = () => r() + r() + r() - 1.5;
  const shared = Float32Array.from({ length: DIM }, () => g() * 0.6);
  const centres = Array.from({ length: topics }, () =>
    Float32Array.from({ length: DIM }, (_, j) => shared[j]! + g() * (j < DIM / 4 ? 2 : 0.7)),
  );
  return Array.from({ length: n }, () => {
    const c = centres[Math.floor(r() * topics)]!;
    return Float32Array.from({ length: DIM }, (_, j) => c[j]! + g() * 0.5);
  });
}

const [HEAD, IDS, CODES, ROWS] = compactFileNames('lib');

async function saved(folder: MemoryFolder, n: number, seed = 1) {
  const vs = clustered(n, seed);
  const ids = vs.map((_, i) => `doc${i % 97}#${i}`);
  const index = (await compactPersistence(folder, OPTS).create('lib', 'model-a', DIM))!;
  // Two batches, the second crossing TRAIN_AT (the first batch's codes are re-encoded and re-written then).
  index.add(ids.slice(0, 700), vs.slice(0, 700));
  index.add(ids.slice(700), vs.slice(700));
  return { index, vs, ids };
}

const reopen = (folder: MemoryFolder, stamp = 'model-a') => compactPersistence(folder, OPTS).open('lib', stamp);
const queries = clustered(25, 99);

describe('the compact index, saved and re-opened', () => {
  it('comes back from its files with identical answers (ids and scores), without a float', async () => {
    const folder = new MemoryFolder();
    const { index } = await saved(folder, TRAIN_AT + 1500);
    const again = (await reopen(folder))!;
    expect(again.size()).toBe(index.size());
    expect(again.saved).toBe(true);
    for (const q of queries) expect(again.search(q, 10)).toEqual(index.search(q, 10));
    expect([...again.idList()]).toEqual([...index.idList()]);
  });

  it('appends to the saved state after a re-open: only the new rows are written', async () => {
    const folder = new MemoryFolder();
    const { index } = await saved(folder, TRAIN_AT + 1500);
    const before = folder.bytes(CODES!).length;
    const again = (await reopen(folder))!;
    folder.written.clear();
    const late = clustered(20, 7);
    again.add(
      late.map((_, i) => `late#${i}`),
      late,
    );
    // 20 rows of codes (8 bytes each at 64-d, padded to 128 bits: 16, and a 4-byte factor) and int8 rows, one log line each.
    expect(folder.written.get(CODES!)).toBe(20 * 20);
    expect(folder.written.get(ROWS!)).toBe(20 * (DIM + 4));
    expect(folder.bytes(CODES!).length).toBe(before + 20 * 20);
    const third = (await reopen(folder))!;
    expect(third.size()).toBe(index.size() + 20);
    for (let i = 0; i < late.length; i++) expect(third.search(late[i]!, 1)[0]!.id).toBe(`late#${i}`);
    for (const q of queries.slice(0, 5)) expect(third.search(q, 10)).toEqual(again.search(q, 10));
  });

  it('removes after a re-open, and the removal is what the next re-open sees', async () => {
    const folder = new MemoryFolder();
    const { vs, ids } = await saved(folder, TRAIN_AT + 600);
    const again = (await reopen(folder))!;
    const gone = ids.filter((_, i) => i % 3 === 0);
    expect(again.remove(gone)).toBe(gone.length);
    const third = (await reopen(folder))!;
    expect(third.size()).toBe(ids.length - gone.length);
    for (const id of gone) expect(third.has(id)).toBe(false);
    // The rows that filled the holes still answer for their own vectors.
    for (const i of [1, 2, ids.length - 1, ids.length - 2])
      if (i % 3 !== 0) expect(third.search(vs[i]!, 1)[0]!.id).toBe(ids[i]);
    // The same answers as an index that was never saved and went through the same changes.
    const memory = new CompactIndex(DIM, OPTS);
    memory.add(ids.slice(0, 700), vs.slice(0, 700));
    memory.add(ids.slice(700), vs.slice(700));
    memory.remove(gone);
    for (const q of queries) expect(third.search(q, 10)).toEqual(memory.search(q, 10));
  });

  it('refuses a damaged state by name: truncated files, a flipped byte, an unreadable head', async () => {
    const damage: Array<[string, (f: MemoryFolder) => void, RegExp]> = [
      ['codes truncated', (f) => f.truncate(CODES!, 100), /codes file holds/],
      ['rows truncated', (f) => f.truncate(ROWS!, 1000), /rows file holds/],
      ['log truncated', (f) => f.truncate(IDS!, 10), /id log/],
      ['code flipped', (f) => void (f.bytes(CODES!)[333]! ^= 4), /checksum/],
      ['id changed', (f) => void (f.bytes(IDS!)[5] = 'x'.charCodeAt(0)), /checksum|replay/],
      ['head garbage', (f) => f.bytes(HEAD!).fill(0x7b, 0, 4), /head/],
    ];
    for (const [what, hurt, message] of damage) {
      const folder = new MemoryFolder();
      await saved(folder, TRAIN_AT + 200);
      hurt(folder);
      const err = await reopen(folder).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, what).toBeInstanceOf(CompactStateError);
      expect((err as CompactStateError).stale, what).toBe(false);
      expect((err as Error).message, what).toMatch(message);
    }
  });

  it('calls a state made from another model’s vectors stale, and nothing saved null', async () => {
    const folder = new MemoryFolder();
    await saved(folder, 50);
    const err = await reopen(folder, 'model-b').catch((e: unknown) => e);
    expect(err).toMatchObject({ stale: true });
    expect(await reopen(new MemoryFolder())).toBeNull();
    const locked = new MemoryFolder();
    locked.available = false;
    expect(await compactPersistence(locked).create('lib', '', DIM)).toBeNull();
  });

  it('a crash between writes (rows and codes written, head not) re-opens as the last committed state', async () => {
    const folder = new MemoryFolder();
    const { index } = await saved(folder, TRAIN_AT + 100);
    const head = folder.bytes(HEAD!).slice();
    const late = clustered(5, 3);
    index.add(
      late.map((_, i) => `late#${i}`),
      late,
    );
    // Put back the head from before the add: appended rows and log lines are past what it records.
    const f = (await folder.open(HEAD!))!;
    f.write(0, head);
    f.truncate(head.length);
    const again = (await reopen(folder))!;
    expect(again.size()).toBe(TRAIN_AT + 100);
    expect(again.has('late#0')).toBe(false);
    again.add(['late#0'], [late[0]!]);
    expect((await reopen(folder))!.search(late[0]!, 1)[0]!.id).toBe('late#0');
  });

  it('refuses an id the log cannot hold before changing anything', async () => {
    const folder = new MemoryFolder();
    const { index } = await saved(folder, 30);
    const v = clustered(2, 8);
    expect(() => index.add(['ok#1', 'bad\n#2'], v)).toThrow(/line break/);
    expect(index.has('ok#1')).toBe(false);
    expect((await reopen(folder))!.size()).toBe(30);
  });

  it('an index without files keeps working in memory', () => {
    const index = new CompactIndex(DIM, OPTS);
    expect(index.saved).toBe(false);
    const vs = clustered(30, 5);
    index.add(
      vs.map((_, i) => `m#${i}`),
      vs,
    );
    expect(index.search(vs[4]!, 1)[0]!.id).toBe('m#4');
  });
});
