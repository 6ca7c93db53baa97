// Serves the OCR engine from the site itself (never a CDN): tesseract.js's worker
// script, its LSTM-only cores and the English model are copied out of node_modules
// into OCR_ASSET_DIR at build time (and served from there by the dev server), so no
// binary is committed and an `npm install` of another version cannot go unnoticed.
import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';
import { ENG_DATA_VERSION, OCR_ASSET_DIR, OCR_FILES, TESSERACT_VERSION } from './src/library/ocr/assets';

const require = createRequire(import.meta.url);

function packageDir(name: string, version: string): string {
  const dir = dirname(require.resolve(`${name}/package.json`));
  const installed = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  if (installed !== version)
    throw new Error(
      `vite.ocr.ts expects ${name} ${version} but ${installed} is installed: update src/library/ocr/assets.ts`,
    );
  return dir;
}

/** Path under OCR_ASSET_DIR → file on disk. */
export function ocrSources(): Map<string, string> {
  const tesseract = packageDir('tesseract.js', TESSERACT_VERSION);
  const core = dirname(require.resolve('tesseract.js-core/package.json'));
  const eng = packageDir('@tesseract.js-data/eng', ENG_DATA_VERSION);
  const out = new Map<string, string>([[OCR_FILES.worker, join(tesseract, 'dist/worker.min.js')]]);
  for (const file of OCR_FILES.cores) out.set(file, join(core, file.replace(/^core\//, '')));
  out.set(OCR_FILES.lang, join(eng, '4.0.0_best_int/eng.traineddata.gz'));
  return out;
}

export function ocrAssets(): Plugin {
  const sources = ocrSources();
  return {
    name: 'selfrag-ocr-assets',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = decodeURIComponent((req.url ?? '').split('?')[0] ?? '');
        const at = path.indexOf(`/${OCR_ASSET_DIR}`);
        const file = at >= 0 ? sources.get(path.slice(at + OCR_ASSET_DIR.length + 1)) : undefined;
        if (!file) return next();
        res.setHeader('Content-Type', file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream');
        createReadStream(file).pipe(res);
      });
    },
    generateBundle() {
      for (const [path, file] of sources)
        this.emitFile({ type: 'asset', fileName: OCR_ASSET_DIR + path, source: readFileSync(file) });
    },
  };
}
