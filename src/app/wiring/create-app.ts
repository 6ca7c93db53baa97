// The composition root: the page's one set of services, the controller (the one owner of settings)
// and the conversation around it, made once and handed to React through a context (src/ui/AppContext.tsx),
// so no part of the UI reaches for a module-level singleton. main.tsx only renders what this makes.
// What no first paint needs stays behind dynamic imports here as it did in main.tsx: the entry's
// download has a budget (docs/testing.md).
import { loadSettings } from '../persist/settings';
import { readUrlState } from '../persist/url-state';
import { answeringModel } from '../persist/engine-choice';
import { createController, type Controller } from './controller';
import { createConversation, type CompleteFn, type Conversation } from './conversation';
import { lazyDecode } from './lazy-decode';
import { lazyRerank } from './lazy-rerank';
import { startOfflineWiring, type OfflineWiring } from './offline-panel';
import { followAddress } from './page-address';
import { createServices, type Services } from './services';
import type { AppServices } from './services-contract';
import { controllerSettings } from './settings-source';
import type { StoragePlan } from './storage-plan';

export interface PageApp {
  controller: Controller;
  conversation: Conversation;
  /** What the page's panels use (the library's actions wrapped to watch storage). */
  services: AppServices;
  /** The same services whole, as the evaluation harness asks for them (app/wiring/eval-sources.ts). */
  harness: Services;
  offline: OfflineWiring;
  /** The question the address carries, shown in the ask box. */
  initialQuestion: string;
  /** The link to the question shown, with today's settings. */
  share(): string;
  /** Starts what waits for the first paint: the workers, the address's question, a host page's bridge. */
  start(): void;
}

/**
 * A frame's settings are where its storage plan says: the app site's own once the visitor granted
 * Storage Access (asked again silently at start), none when the browser blocks storage (they last
 * for the visit). A top-level page does not wait for the plan.
 */
async function settingsStorage(win: Window, plan: StoragePlan): Promise<Storage | undefined> {
  if (win.parent !== win) return plan.ready().then(() => plan.settingsStorage());
  try {
    return win.localStorage;
  } catch {
    return undefined;
  }
}

/** The conversation around the controller: threads kept where the plan says, follow-ups rewritten by the generator. */
function conversationOf(controller: Controller, services: Services, ready: Promise<unknown>): Conversation {
  const plan = services.storage!;
  // The follow-up rewrite: one short call on the generator. The answer loads it next anyway (after a
  // reload it is not loaded yet), so the rewrite waits for it rather than searching without it;
  // a generator that failed to load is not tried again for the rewrite.
  const complete = async (): Promise<CompleteFn | null> => {
    if (services.status.get().generator.state === 'error') return null;
    const handle = await services.generator();
    return (req) => handle.complete(req);
  };
  return createConversation({
    controller,
    // The app site's own IndexedDB in a frame granted Storage Access. The store's code (and idb) loads
    // beside the first paint, not in the entry.
    store: Promise.all([plan.ready(), import('../persist/thread-store'), ready]).then(([s, { ThreadStore }]) =>
      ThreadStore.open(undefined, s.mode === 'shared' ? plan.savedIndexedDB() : undefined),
    ),
    // A page whose storage notice already says conversations are not kept shows no second notice.
    notKeptSaid: async () => (await plan.ready()).mode === 'memory',
    complete,
    model: () => answeringModel(controller.getState().settings),
  });
}

export async function createApp(win: Window = window): Promise<PageApp> {
  const services = createServices(win.location.search, win.document.baseURI);
  const storage = await settingsStorage(win, services.storage!);
  const fromUrl = readUrlState(win.location.search, loadSettings(storage));
  // Re-ranking (sliders, a viewed turn) loads beside the first paint; a tree to re-rank comes only
  // from the decode or the kept threads, which wait for it (lazy-rerank.ts).
  const ranker = lazyRerank(() => import('../../core/rerank'));
  // The decode loop loads with the first question (called outside the bundler's import wrapper:
  // lazy-decode.ts says why).
  const decode = lazyDecode(() => Promise.all([import('../../core/decode'), ranker.ready]).then(([m]) => m));
  // The controller owns the settings (the engine the address names is this visit's, never saved); the services follow them.
  const controller = createController({
    ports: services.ports,
    decode,
    rerank: ranker.rerank,
    settings: fromUrl.settings,
    visit: fromUrl.visit,
    storage,
  });
  services.follow(controllerSettings(controller));
  const conversation = conversationOf(controller, services, ranker.ready);
  const address = followAddress(win, controller, conversation, fromUrl);
  // The service worker, the offline status and storage (persistence, estimate, quota messages).
  const offline = startOfflineWiring(services, controller);

  return {
    controller,
    conversation,
    services: offline.services,
    harness: services,
    offline: offline.wiring,
    initialQuestion: fromUrl.question ?? '',
    share: address.share,
    start() {
      // Workers start after the first paint so the page is usable at once.
      win.requestAnimationFrame(() => setTimeout(() => services.start(), 0));
      // A linked question is answered once the library has documents to search.
      address.askLinked(services.library);
      // Only a page in a frame answers a host page: the bridge's code loads only there.
      if (win.parent !== win)
        void import('./embed-wiring').then((m) => m.startEmbedBridge(controller, conversation, win));
    },
  };
}
