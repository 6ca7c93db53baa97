// What the offline panel shows about the app itself; apart from browser/service-worker.ts so it can be
// read without registering a service worker (Node tests, the UI's types).

/** A label a deployment can give its build (`VITE_APP_BUILD=2026-11-22 npm run build`), shown in the offline panel. */
export const APP_BUILD: string = import.meta.env.VITE_APP_BUILD ?? '';

export type ShellState = 'unsupported' | 'saving' | 'ready' | 'error';

export interface OfflineState {
  shell: ShellState;
  /** Why the app could not be saved for offline use. */
  error: string | null;
  /** A new version is installed and waits for the user's reload. */
  updateReady: boolean;
  /** The page is running code from a build the server no longer has (another tab updated). */
  stale: boolean;
}
