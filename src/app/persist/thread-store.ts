// Threads in IndexedDB, one record per thread (its whole turn tree, so a turn and its
// siblings are always written together) plus a small summary record for the list, written
// in the same transaction. Every change is announced on a BroadcastChannel so another open
// tab can refresh its list or notice that the thread it shows was deleted.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { activePath, type Thread } from '../../core/conversation/thread';
import { isQuotaError } from '../../library/quota';
import { errorMessage } from '../../core/errors';

export interface ThreadSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  turnCount: number;
}

interface ThreadSchema extends DBSchema {
  threads: { key: string; value: Thread };
  summaries: { key: string; value: ThreadSummary; indexes: { updatedAt: number } };
}

export type ThreadChange = { type: 'put' | 'delete'; id: string };

export const THREAD_DB_NAME = 'selfrag-threads';
const CHANNEL = 'selfrag-threads';

/** Saving failed; `full` when the site's storage quota is the reason. The thread stays in memory. */
export class ThreadSaveError extends Error {
  override name = 'ThreadSaveError';
  constructor(
    message: string,
    readonly full: boolean,
  ) {
    super(message);
  }
}

/** A thread as its list shows it; its turn count is the questions on the shown path, not every version kept. */
export function summaryOf(t: Thread): ThreadSummary {
  return { id: t.id, title: t.title, createdAt: t.createdAt, updatedAt: t.updatedAt, turnCount: activePath(t).length };
}

export class ThreadStore {
  private readonly listeners = new Set<(c: ThreadChange) => void>();
  private readonly channel: BroadcastChannel | null;

  private constructor(
    private readonly db: IDBPDatabase<ThreadSchema>,
    channelName: string,
  ) {
    this.channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(channelName) : null;
    if (this.channel) this.channel.onmessage = (e: MessageEvent<ThreadChange>) => this.emit(e.data);
  }

  /** `factory`: another IndexedDB than the page's (the app site's, in a frame granted Storage Access). */
  static async open(name = THREAD_DB_NAME, factory?: IDBFactory): Promise<ThreadStore> {
    const upgrade = (db: IDBPDatabase<ThreadSchema>) => {
      db.createObjectStore('threads', { keyPath: 'id' });
      db.createObjectStore('summaries', { keyPath: 'id' }).createIndex('updatedAt', 'updatedAt');
    };
    // Only a frame granted the app site's storage passes a factory; the library's opener loads then.
    if (factory) {
      const { openWith } = await import('../../library/store');
      return new ThreadStore(await openWith<ThreadSchema>(factory, name, upgrade), `${CHANNEL}:${name}`);
    }
    const db = await openDB<ThreadSchema>(name, 1, {
      upgrade,
      blocking() {
        db.close();
      },
    });
    return new ThreadStore(db, `${CHANNEL}:${name}`);
  }

  /** Newest first. */
  async list(): Promise<ThreadSummary[]> {
    const all = await this.db.getAllFromIndex('summaries', 'updatedAt');
    return all.reverse();
  }

  async get(id: string): Promise<Thread | undefined> {
    return this.db.get('threads', id);
  }

  /** Writes the thread and its summary together; a failure leaves the stored copy as it was. */
  async put(thread: Thread): Promise<void> {
    try {
      const tx = this.db.transaction(['threads', 'summaries'], 'readwrite');
      await Promise.all([
        tx.objectStore('threads').put(thread),
        tx.objectStore('summaries').put(summaryOf(thread)),
        tx.done,
      ]);
    } catch (e) {
      const full = isQuotaError(e);
      throw new ThreadSaveError(
        full
          ? 'This turn could not be kept: the storage for this site is full. It stays on screen until you leave; export the thread to keep it, or free some space.'
          : `This turn could not be kept: ${errorMessage(e)}`,
        full,
      );
    }
    this.announce({ type: 'put', id: thread.id });
  }

  async rename(id: string, title: string): Promise<Thread | undefined> {
    const t = await this.get(id);
    const clean = title.trim().replace(/\s+/g, ' ');
    if (!t || !clean) return t;
    const next = { ...t, title: clean.slice(0, 200) };
    await this.put(next);
    return next;
  }

  async delete(id: string): Promise<void> {
    const tx = this.db.transaction(['threads', 'summaries'], 'readwrite');
    await Promise.all([tx.objectStore('threads').delete(id), tx.objectStore('summaries').delete(id), tx.done]);
    this.announce({ type: 'delete', id });
  }

  /** Changes made here and in other tabs. */
  subscribe(fn: (c: ThreadChange) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  close(): void {
    this.channel?.close();
    this.db.close();
  }

  private announce(c: ThreadChange): void {
    this.emit(c);
    this.channel?.postMessage(c);
  }

  private emit(c: ThreadChange): void {
    for (const fn of this.listeners) fn(c);
  }
}
