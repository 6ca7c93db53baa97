// A scan in a batch: the library reports its pages as they are recognised, with
// the time left at the rate so far, and stores which pages were recognised.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FlatIndex } from '../../../../src/vector/flat-index';
import { IndexHost } from '../../../../src/library/index-host';
import { readAndPrepare } from '../../../../src/library/ingest';
import { Library, type LibraryProgress } from '../../../../src/library/library';
import type { OcrPort } from '../../../../src/library/ocr/port';
import { loadPdfJsInNode } from '../../../../src/library/parse/pdf-node';
import { HashEmbedder } from '../../../doubles/hash-embedder';
import { tinyPdf } from '../../../doubles/tiny-pdf';

const open: Library[] = [];
afterEach(() => {
  open.splice(0).forEach((l) => l.close());
  vi.useRealTimers();
});

describe('a scan in a batch', () => {
  it('counts pages being recognised with the time left, and records the recognised pages', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(0);
    const events: LibraryProgress[] = [];
    const lib = await Library.open({
      embedder: new HashEmbedder(),
      index: new IndexHost('flat', (_k, dim) => new FlatIndex(dim)),
      dbName: 'ocr-progress',
      seed: false,
      onProgress: (p) => events.push(p),
      // What the library worker does, in-process: each page takes 4 s of (fake) time.
      prepare: (file, opts, _signal, onOcr) => {
        const ocr: OcrPort = {
          async recognisePdfPage() {
            vi.setSystemTime(Date.now() + 4000);
            return { text: 'The ferry to the island leaves at seven every morning.', confidence: 88 };
          },
          async recogniseImage() {
            throw new Error('no image here');
          },
          ...(onOcr ? { onProgress: onOcr } : {}),
        };
        return readAndPrepare(file, { ...opts, pdf: loadPdfJsInNode, ocr });
      },
    });
    open.push(lib);
    const r = await lib.addFiles([{ name: 'timetable.pdf', bytes: tinyPdf([[], [], []]) }]);
    expect(r.refused).toEqual([]);
    const pages = events
      .filter((e) => e.stage === 'recognising')
      .map((e) => [e.pagesDone, e.pagesTotal, e.secondsLeft]);
    expect(pages).toEqual([
      [0, 3, undefined],
      [1, 3, 8],
      [2, 3, 4],
      [3, 3, 0],
    ]);
    const stored = await lib.document(r.added[0]!.id);
    expect(stored?.doc.ocr).toEqual({ pages: [1, 2, 3], meanConfidence: 88, lowConfidencePages: [], emptyPages: [] });
    expect(r.notes).toEqual([
      { name: 'timetable.pdf', note: '3 of its 3 pages had no text layer and were recognised (mean confidence 88 %)' },
    ]);
  });
});
