// Where the site serves the OCR engine (vite.ocr.ts copies it there from
// node_modules at build time). The versions are in the path, so a new engine or
// language model is a new URL and never a stale cached file.

export const TESSERACT_VERSION = '7.0.0';
export const ENG_DATA_VERSION = '1.0.0';

/** Relative to the site's root. */
export const OCR_ASSET_DIR = `ocr/tesseract-${TESSERACT_VERSION}-eng-${ENG_DATA_VERSION}/`;

/**
 * The files, by their path under OCR_ASSET_DIR. Only the LSTM-only cores are
 * served (the legacy engine is never used); tesseract.js picks one of the three
 * by the browser's WebAssembly SIMD support. The English model is `best_int`
 * (2.9 MB, the LSTM model tesseract.js itself uses for LSTM-only recognition).
 */
export const OCR_FILES = {
  worker: 'worker.min.js',
  cores: [
    'core/tesseract-core-lstm.wasm.js',
    'core/tesseract-core-simd-lstm.wasm.js',
    'core/tesseract-core-relaxedsimd-lstm.wasm.js',
  ],
  lang: 'lang/eng.traineddata.gz',
} as const;

/**
 * What the first scan downloads, as served (no HTTP compression assumed): the worker
 * script (0.1 MB), one core (3.9 MB; the wasm is inlined as base64) and the English
 * model (2.9 MB). test/unit/library/ocr/assets.test.ts holds it to the installed files.
 */
export const OCR_DOWNLOAD_BYTES = 7_000_000;
