// The decode loop, loaded with the first question. Only the module's loading may sit inside the
// bundler's dynamic import: Vite wraps `import(x).then((m) => m.f(...))` whole in its preload
// helper, whose `.catch` takes any rejection (the decode's own errors too) for a chunk that failed
// to load and fires `vite:preloadError`; the page's handler (browser/service-worker.ts) then
// resolved the call to undefined, and every failed answer read "Cannot read properties of
// undefined (reading 'aborted')" instead of its own error (issue 47). Here the decode runs after
// the load has settled, outside the wrapper.
import type { DecodeFn } from './controller';

export function lazyDecode(load: () => Promise<{ decode: DecodeFn }>): DecodeFn {
  return async (...args) => {
    const { decode } = await load();
    return decode(...args);
  };
}
