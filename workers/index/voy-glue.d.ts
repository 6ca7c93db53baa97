// voy-search ships its wasm-bindgen glue without types; only what voy-index.ts uses.
declare module 'voy-search/voy_search_bg.js' {
  export function __wbg_set_wasm(exports: WebAssembly.Exports): void;
  export { Voy } from 'voy-search';
}
