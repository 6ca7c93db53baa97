/**
 * The error path of Vite's preload helper, restated from its source (vite 8,
 * dist/node/chunks/node.js, `function preload(baseModule, deps, importerUrl)`): every dynamic
 * import of a built page runs as `preload(() => import(x) …)`, and
 *
 *   function handlePreloadError(err) {
 *     const e = new Event("vite:preloadError", { cancelable: true });
 *     e.payload = err;
 *     window.dispatchEvent(e);
 *     if (!e.defaultPrevented) throw err;
 *   }
 *   return promise.then(() => baseModule().catch(handlePreloadError));
 *
 * so whatever `baseModule` rejects with goes to the page's `vite:preloadError` listeners, and a
 * listener that prevents the default turns the rejection into a promise resolved with undefined.
 * Vite puts a `.then((m) => m.f(...))` written on the import inside `baseModule` (its dynamic-import
 * tree-shaking), so f's own errors take that path too. `target` stands for the page's window.
 */
export function vitePreload<T>(target: EventTarget, baseModule: () => Promise<T>): Promise<T> {
  const handlePreloadError = (err: unknown): undefined => {
    const e = Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload: err });
    target.dispatchEvent(e);
    if (!e.defaultPrevented) throw err;
    return undefined;
  };
  return Promise.resolve().then(() => baseModule().catch(handlePreloadError)) as Promise<T>;
}
