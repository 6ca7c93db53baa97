import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createController } from './app/wiring/controller';
import { lazyDecode } from './app/wiring/lazy-decode';
import { lazyRerank } from './app/wiring/lazy-rerank';
import { getServices } from './app/wiring/services';
import { controllerSettings } from './app/wiring/settings-source';
import { startOfflineWiring } from './app/wiring/offline-panel';
import { loadSettings } from './app/persist/settings';
import { readUrlState, writeUrlState } from './app/persist/url-state';
import { readPageEntry, sameEntry, withPageEntry, type PageEntry } from './app/persist/page-entry';
import { App } from './ui/App';
import { createConversation, type CompleteFn } from './app/wiring/conversation';
import { answeringModel } from './app/persist/engine-choice';
import './ui/styles.css';

const services = getServices();
const plan = services.storage!;
// A frame's settings are where its storage plan says: the app site's own once the visitor granted
// Storage Access (asked again silently at start), none when the browser blocks storage (they last
// for the visit). A top-level page does not wait for the plan.
const framed = window.parent !== window;
const storage = framed
  ? await plan.ready().then(() => plan.settingsStorage())
  : (() => {
      try {
        return window.localStorage;
      } catch {
        return undefined;
      }
    })();

const fromUrl = readUrlState(location.search, loadSettings(storage));
// Re-ranking (sliders, a viewed turn) loads beside the first paint; a tree to re-rank comes only
// from the decode or the kept threads, which wait for it (app/wiring/lazy-rerank.ts).
const ranker = lazyRerank(() => import('./core/rerank'));
// The decode loop loads with the first question (called outside the bundler's import wrapper:
// app/wiring/lazy-decode.ts says why).
const decode = lazyDecode(() => Promise.all([import('./core/decode'), ranker.ready]).then(([m]) => m));
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

// The follow-up rewrite: one short call on the generator. The answer loads it next anyway (after a
// reload it is not loaded yet), so the rewrite waits for it rather than searching without it;
// a generator that failed to load is not tried again for the rewrite.
const complete = async (): Promise<CompleteFn | null> => {
  if (services.status.get().generator.state === 'error') return null;
  const handle = await services.generator();
  return (req) => handle.complete(req);
};
const conversation = createConversation({
  controller,
  // The app site's own IndexedDB in a frame granted Storage Access. The store's code (and idb) loads
  // beside the first paint, not in the entry.
  store: Promise.all([plan.ready(), import('./app/persist/thread-store'), ranker.ready]).then(([s, { ThreadStore }]) =>
    ThreadStore.open(undefined, s.mode === 'shared' ? plan.savedIndexedDB() : undefined),
  ),
  // A page whose storage notice already says conversations are not kept shows no second notice.
  notKeptSaid: async () => (await plan.ready()).mode === 'memory',
  complete,
  model: () => answeringModel(controller.getState().settings),
});
// A reload finds the thread that was open in its history entry (persist/page-entry.ts); a page
// without one (an older entry) re-opens the newest thread when it ends with the address's question.
// Either way the address's question is not asked again.
let kept = readPageEntry(history.state);
const started = conversation.start({ linkedQuestion: fromUrl.question, entry: kept });

/**
 * What a link reproduces: the question as typed, and what it was searched by where that differs
 * ("and how do I use it with Rc?" is searched as its standalone form when the link is opened).
 */
const linkQuestion = (): { question: string | null; searched: string | null } => {
  const { thread, viewed } = conversation.get();
  const turn = viewed ? thread?.turns[viewed] : undefined;
  if (turn) return { question: turn.question, searched: turn.searchQuery ?? null };
  return { question: controller.getState().answer.question || null, searched: null };
};

const shareUrl = () => {
  const s = controller.getState();
  const { question, searched } = linkQuestion();
  return new URL(writeUrlState(location.search, question, s.settings, searched) + location.hash, location.href).href;
};

// Keep the address bar a shareable link to the current question and settings.
let lastQuestion = '';
controller.subscribe(() => {
  const q = controller.getState().answer.question;
  if (q && q !== lastQuestion) {
    lastQuestion = q;
    history.replaceState(history.state, '', shareUrl());
  }
});

// The thread open is kept in the history entry once the page has started and the address's question
// has had its turn (a reload before it was asked still asks it).
let linkSettled = false;
const keepEntry = () => {
  if (!linkSettled) return;
  const { thread, viewed } = conversation.get();
  const entry: PageEntry = { thread: thread?.id ?? null, viewed };
  if (sameEntry(kept, entry)) return;
  kept = entry;
  history.replaceState(withPageEntry(history.state, entry), '');
};
conversation.subscribe(keepEntry);
void started.then((answered) => {
  if (!answered && fromUrl.question) return;
  linkSettled = true;
  keepEntry();
});

// The service worker, the offline status and storage (persistence, estimate, quota messages).
const offline = startOfflineWiring(services, controller);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App
      controller={controller}
      conversation={conversation}
      services={offline.services}
      initialQuestion={fromUrl.question ?? ''}
      onShare={shareUrl}
      offline={offline.wiring}
    />
  </StrictMode>,
);

// Workers start after the first paint so the page is usable at once.
requestAnimationFrame(() => setTimeout(() => services.start(), 0));

// A linked question is answered once the library has documents to search.
if (fromUrl.question) {
  const question = fromUrl.question;
  const unsubscribe = services.library.subscribe(() => {
    const lib = services.library.get();
    if (lib.ready && lib.docs.length > 0 && lib.jobs.length === 0) {
      unsubscribe();
      // A link reproduces one question, in a thread of its own.
      void started.then((answered) => {
        if (answered) return;
        conversation.newThread();
        void conversation.ask(question, fromUrl.searched ?? undefined);
        // Kept with the next change of the conversation: the question's turn.
        linkSettled = true;
      });
    }
  });
}

// Only a page in a frame answers a host page: the bridge's code loads only there.
if (framed) void import('./app/wiring/embed-wiring').then((m) => m.startEmbedBridge(controller));
