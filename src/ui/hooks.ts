import { useContext, useEffect, useState, useSyncExternalStore } from 'react';
import type { Theme } from '../app/persist/settings';
import type { PageApp } from '../app/wiring/create-app';
import { AppContext } from './AppContext';
import { WIDE_MIN_PX } from '../app/view/show-opened';

export function useStore<T>(store: { subscribe(fn: () => void): () => void }, get: () => T): T {
  return useSyncExternalStore((fn) => store.subscribe(fn), get, get);
}

/** A clock for "time left" texts, ticking only while something is in progress. */
export function useNow(active: boolean, everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [active, everyMs]);
  return now;
}

export function useHashRoute(): string {
  const [hash, setHash] = useState(() => location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
}

/** True while the viewport is wider than `minPx` (side panels shown open beside the answer). */
export function useWide(minPx = WIDE_MIN_PX): boolean {
  const query = `(min-width: ${minPx}px)`;
  const [wide, setWide] = useState(() => typeof matchMedia !== 'function' || matchMedia(query).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const m = matchMedia(query);
    const on = () => setWide(m.matches);
    m.addEventListener('change', on);
    on();
    return () => m.removeEventListener('change', on);
  }, [query]);
  return wide;
}

/** The page follows the chosen theme; 'system' leaves it to the browser's preference. */
export function useTheme(theme: Theme): void {
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
}

/** The page's app, from the context main.tsx provides; a component outside it is a wiring mistake. */
export function useApp(): PageApp {
  const app = useContext(AppContext);
  if (!app) throw new Error('useApp: no AppContext.Provider above this component (main.tsx provides it).');
  return app;
}
