// The page's address, now kept by app/wiring/page-address.ts (it was main.tsx's): a linked question
// is asked once, in a thread of its own, when the library has documents; the address bar follows
// the question shown; a reload of that address re-opens the thread and asks nothing again.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { createController } from '../../../../src/app/wiring/controller';
import { createConversation } from '../../../../src/app/wiring/conversation';
import { followAddress, type AddressWindow } from '../../../../src/app/wiring/page-address';
import type { AppServices } from '../../../../src/app/wiring/services-contract';
import { defaultSettings } from '../../../../src/app/persist/settings';
import { ThreadStore } from '../../../../src/app/persist/thread-store';
import { createStore } from '../../../../src/app/state/store';
import { decode } from '../../../../src/core/decode';
import { rerank } from '../../../../src/core/rerank';
import { syntheticGenerator, syntheticRetriever } from '../../../doubles/synthetic-answer';

const stores: ThreadStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

/** A window whose address and history entry the page keeps, as a browser would. */
function fakeWindow(href: string): AddressWindow & { entries: string[] } {
  let url = new URL(href);
  let state: unknown = null;
  const entries: string[] = [];
  return {
    entries,
    get location() {
      return { search: url.search, hash: url.hash, href: url.href } as Location;
    },
    history: {
      get state() {
        return state;
      },
      replaceState(next: unknown, _unused: string, to?: string | URL | null) {
        state = next;
        if (to) {
          url = new URL(to, url);
          entries.push(url.href);
        }
      },
    } as History,
  };
}

function page(win: AddressWindow, db: string) {
  const settings = defaultSettings();
  settings.decode = { ...settings.decode, mode: 'always', passagesPerStep: 3, beamWidth: 2, maxDepth: 3 };
  const controller = createController({
    ports: {
      generator: async () => syntheticGenerator({ seed: 3 }),
      retriever: async () => syntheticRetriever(),
      critic: async () => undefined,
    },
    decode,
    rerank,
    settings,
  });
  let id = 0;
  const conversation = createConversation({
    controller,
    store: ThreadStore.open(db).then((s) => (stores.push(s), s)),
    model: () => ({ id: 'tiny', contextWindow: 4096 }),
    newId: () => `${db}-${++id}`,
    saveEveryMs: 1,
  });
  const library = createStore({ ready: false, docs: [] as unknown[], jobs: [] as unknown[] });
  const address = followAddress(win, controller, conversation, {
    question: new URL(win.location.href).searchParams.get('q'),
    searched: null,
  });
  address.askLinked(library as unknown as AppServices['library']);
  const libraryReady = () => library.set({ ready: true, docs: [{}], jobs: [] });
  return { controller, conversation, address, libraryReady };
}

const settled = async (conversation: { get(): { running: string | null } }) => {
  for (let i = 0; i < 500 && (conversation.get().running !== null || i < 5); i++)
    await new Promise((r) => setTimeout(r, 2));
};

describe('the page address', () => {
  it('asks a linked question once the library has documents, in a thread of its own; a reload asks nothing again', async () => {
    const win = fakeWindow('https://rag.example/app/?q=How%20do%20bees%20make%20honey%3F');
    const first = page(win, 'address-1');
    await first.address.started;
    expect(first.conversation.get().thread).toBeNull();
    first.libraryReady();
    await new Promise((r) => setTimeout(r, 5));
    await settled(first.conversation);
    const thread = first.conversation.get().thread!;
    expect(Object.values(thread.turns).map((t) => t.question)).toEqual(['How do bees make honey?']);
    // The address bar is the link to the question shown, and the entry remembers the thread.
    expect(first.address.share()).toContain('q=How+do+bees+make+honey%3F');
    expect(win.entries.at(-1)).toContain('q=How+do+bees+make+honey%3F');
    await new Promise((r) => setTimeout(r, 20));

    // The same address and history entry after a reload: the thread re-opens, nothing is asked.
    const again = page(win, 'address-1');
    expect(await again.address.started).toBe(true);
    again.libraryReady();
    await new Promise((r) => setTimeout(r, 20));
    expect(again.conversation.get().thread!.id).toBe(thread.id);
    expect(Object.keys(again.conversation.get().thread!.turns)).toHaveLength(1);
  });
});
