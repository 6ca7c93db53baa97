// A real manual numbers its pages in print differently from the file (libtasn1's PDF: two title
// pages, a roman "i", then the body from 1). A citation names the page as printed, the one a
// reader finds in the document; the file's page stays beside it for the viewer.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { citationLabel } from '../../src/core/source-location';
import { prepare } from '../../src/library/ingest';
import { parseDocument } from '../../src/library/parse';
import { loadPdfJsInNode } from '../../src/library/parse/pdf-node';
import { resolveDoc } from './question-set';

describe("Debian's libtasn1 manual (PDF)", () => {
  it('records each page as printed, and cites the printed number', async () => {
    const path = resolveDoc('libtasn1');
    const parsed = await parseDocument(
      { name: 'libtasn1.pdf', bytes: new Uint8Array(readFileSync(path)) },
      { pdf: loadPdfJsInNode },
    );
    const pages = parsed.layout!.pages!;
    expect(pages.find((p) => p.page === 3)?.label).toBe('i');
    expect(pages.find((p) => p.page === 25)?.label).toBe('22');
    const { passages } = await prepare(parsed, { targetTokens: 200, overlapTokens: 40 });
    const on25 = passages.find((p) => p.source?.page === 25 && p.source.pageEnd === undefined);
    expect(on25, 'a passage wholly on the file’s page 25').toBeDefined();
    expect(citationLabel({ title: 'libtasn1', index: on25!.index, source: on25!.source! })).toBe('libtasn1, p. 22');
  });
});
