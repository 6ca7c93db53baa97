// The service worker (built by vite-plugin-pwa, see vite.pwa.ts) from the page's side:
// whether the app itself is saved for offline use, and the "new version" prompt.
// A new build waits until the user accepts it and then the page reloads, so an open
// page never runs the old shell against the new build's chunks.
import type { OfflineState } from '../state/offline-shell';
import { createStore } from '../state/store';
import { errorMessage } from '../../core/errors';

export type { OfflineState, ShellState } from '../state/offline-shell';
export { APP_BUILD } from '../state/offline-shell';

export interface OfflineStore {
  get(): OfflineState;
  subscribe(fn: () => void): () => void;
  /** Switches to the waiting version and reloads the page. */
  applyUpdate(): Promise<void>;
}

/** How often an accepted update asks the waiting worker again while it has not started to activate. */
const SKIP_WAITING_RETRY_MS = 3000;

/** How often an open page asks the server for a new version. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export function startOffline(): OfflineStore {
  // The development server (`npm start`, the only place with hot reload) builds no service
  // worker; only a built site has one. (import.meta.env.DEV is also true in a build made with
  // NODE_ENV=test, as the browser tests' builds are.)
  const dev = !!import.meta.hot;
  const supported = !dev && typeof navigator !== 'undefined' && 'serviceWorker' in navigator && window.isSecureContext;
  const store = createStore<OfflineState>({
    shell: supported ? 'saving' : 'unsupported',
    error: dev
      ? 'This is the development server, which does not save the app for offline use: run npm run build, then npm run preview (or copy dist/ to any static host) to use it offline.'
      : null,
    updateReady: false,
    stale: false,
  });
  const set = (patch: Partial<OfflineState>) => store.set((s) => ({ ...s, ...patch }));

  let applying = false;
  if (supported) {
    // Another tab accepted a new version: this page's shell is now older than its service worker.
    const hadController = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (hadController && !applying) set({ stale: true });
    });
    // The registration's code loads beside the first paint, not in the entry.
    void import('virtual:pwa-register')
      .then(({ registerSW }) =>
        registerSW({
          immediate: true,
          onNeedRefresh: () => set({ updateReady: true }),
          onOfflineReady: () => set({ shell: 'ready' }),
          onRegisteredSW: (_url, registration) => {
            // An active worker has finished its install, i.e. precached every file of its build.
            void navigator.serviceWorker.ready.then(() => set({ shell: 'ready', error: null }));
            if (!registration) return;
            setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS);
            // A first install that fails (a file of the build missing on the server) leaves nothing
            // active: say so instead of "saving" for ever.
            const watch = (sw: ServiceWorker | null) =>
              sw?.addEventListener('statechange', () => {
                if (sw.state === 'redundant' && !registration.active) {
                  set({
                    shell: 'error',
                    error:
                      'not every file of the app could be downloaded (is the whole site deployed?); reload to try again',
                  });
                }
              });
            watch(registration.installing);
            registration.addEventListener('updatefound', () => watch(registration.installing));
          },
          onRegisterError: (e: unknown) => set({ shell: 'error', error: errorMessage(e) }),
        }),
      )
      .catch(() => undefined);
  }

  // A lazy chunk of this build is gone (another tab switched to a new version, or the site was
  // redeployed while this page was open without a service worker): reloading is the only safe move.
  window.addEventListener('vite:preloadError', (event: Event) => onPreloadError(event, () => set({ stale: true })));

  return {
    get: store.get,
    subscribe: store.subscribe,
    async applyUpdate() {
      applying = true;
      if (!store.get().updateReady) return location.reload();
      // The switch is driven here rather than through workbox-window's messageSkipWaiting: a
      // waiting version that another tab already activated (or that is gone) means reload now, and
      // the message goes to the very worker seen waiting. Whichever comes first, the page's
      // controllerchange or that worker reaching 'activated', reloads once.
      const waiting = (await navigator.serviceWorker.getRegistration())?.waiting;
      if (!waiting) return location.reload();
      let reloading = false;
      const reload = () => {
        if (reloading) return;
        reloading = true;
        clearInterval(retry);
        location.reload();
      };
      navigator.serviceWorker.addEventListener('controllerchange', reload, { once: true });
      waiting.addEventListener('statechange', () => {
        if (waiting.state === 'activated') reload();
        else if (waiting.state === 'redundant') clearInterval(retry);
      });
      // The generated worker calls skipWaiting() on this message (Workbox's SKIP_WAITING
      // convention). A worker the browser stopped while it waited is started to take it; should
      // a message still be lost, it is sent again while the worker stays 'installed'.
      const ask = () => waiting.postMessage({ type: 'SKIP_WAITING' });
      const retry = setInterval(() => {
        if (waiting.state === 'installed') ask();
      }, SKIP_WAITING_RETRY_MS);
      ask();
    },
  };
}

/**
 * A file of this build that could not be loaded (Chromium, Firefox and Safari's words for a
 * dynamic import that failed, Vite's for a stylesheet), as against an error of the code that ran
 * once it had loaded: Vite's preload helper reports both as `vite:preloadError`.
 */
export function isChunkLoadFailure(payload: unknown): boolean {
  const message = errorMessage(payload);
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(message);
}

/**
 * Takes over only a file that failed to load: the page is stale, and the import resolves to
 * nothing while the page offers a reload. Any other error is left to its caller: taken over, it
 * became undefined there (every failed answer read "Cannot read properties of undefined (reading
 * 'aborted')", issue 47) and the page claimed a new version that did not exist.
 */
export function onPreloadError(event: Event, markStale: () => void): void {
  if (!isChunkLoadFailure((event as Event & { payload?: unknown }).payload)) return;
  event.preventDefault();
  markStale();
}
