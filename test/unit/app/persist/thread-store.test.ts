import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { addTurn, emptyThread, updateTurn } from '../../../../src/core/conversation';
import { ThreadSaveError, ThreadStore, type ThreadChange } from '../../../../src/app/persist/thread-store';
import { sampleThread, turn } from '../../core/conversation/fixtures';

let n = 0;
const open: ThreadStore[] = [];
async function store(name = `threads-${++n}`): Promise<ThreadStore> {
  const s = await ThreadStore.open(name);
  open.push(s);
  return s;
}
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 100 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('thread store', () => {
  it('keeps a thread with every sibling and lists threads newest first', async () => {
    const s = await store();
    const a = { ...emptyThread('a', 1, 'First'), updatedAt: 5 };
    const b = { ...sampleThread(), id: 'b', updatedAt: 9 };
    await s.put(a);
    await s.put(b);
    expect((await s.list()).map((x) => x.id)).toEqual(['b', 'a']);
    expect(await s.get('b')).toEqual(b);
    // Two questions, the second in two versions: two turns, not three.
    expect((await s.list())[0]).toMatchObject({ title: 'How do bees make honey?', turnCount: 2 });
  });

  it('renames and deletes', async () => {
    const s = await store();
    await s.put(sampleThread());
    await s.rename('t1', '  Bees   and honey ');
    expect((await s.get('t1'))!.title).toBe('Bees and honey');
    expect((await s.rename('t1', '   '))!.title).toBe('Bees and honey'); // a blank name changes nothing
    await s.delete('t1');
    expect(await s.get('t1')).toBeUndefined();
    expect(await s.list()).toEqual([]);
  });

  it('a turn saved while it streams survives a reload, marked stopped until it finishes', async () => {
    const name = `threads-${++n}`;
    let t = addTurn(
      emptyThread('t', 1),
      turn('q1', null, 'How do bees make honey?', { status: 'stopped', answerText: 'Foragers coll', answer: null }),
      2,
    );
    const s = await store(name);
    await s.put(t);
    s.close();
    const again = await store(name);
    const kept = (await again.get('t'))!;
    expect(kept.turns.q1).toMatchObject({ status: 'stopped', answerText: 'Foragers coll' });
    t = updateTurn(kept, 'q1', { status: 'done', answerText: 'Foragers collect nectar.' }, 3);
    await again.put(t);
    expect((await again.get('t'))!.turns.q1!.status).toBe('done');
  });

  it('tells another tab (another connection) about new and deleted threads', async () => {
    const name = `threads-${++n}`;
    const tab1 = await store(name);
    const tab2 = await store(name);
    const seen: ThreadChange[] = [];
    tab2.subscribe((c) => seen.push(c));
    await tab1.put(sampleThread());
    await until(() => seen.length >= 1);
    expect(seen).toEqual([{ type: 'put', id: 't1' }]);
    expect((await tab2.list()).map((x) => x.id)).toEqual(['t1']);
    await tab1.delete('t1');
    await until(() => seen.length >= 2);
    expect(seen[1]).toEqual({ type: 'delete', id: 't1' });
  });

  it('storage full: the save fails with a message that says so, and the stored copy is unchanged', async () => {
    const s = await store();
    const t = sampleThread();
    await s.put(t);
    const proto = IDBObjectStore.prototype as unknown as { put: (...a: unknown[]) => unknown };
    const real = proto.put;
    proto.put = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    try {
      const err = await s.put(updateTurn(t, 'q1', { answerText: 'changed' }, 99)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ThreadSaveError);
      expect((err as ThreadSaveError).full).toBe(true);
      expect((err as Error).message).toMatch(/could not be kept: the storage for this site is full/);
    } finally {
      proto.put = real;
    }
    expect((await s.get('t1'))!.turns.q1!.answerText).toBe(t.turns.q1!.answerText);
  });
});
