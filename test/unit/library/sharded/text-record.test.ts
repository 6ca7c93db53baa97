// A sharded corpus's passage record carries its place when the writer knew it, as an optional
// sixth element; records without it (every corpus written before) read as they did, and a
// place that is not well formed is dropped rather than trusted.
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { decodeText, encodeText } from '../../../../src/library/sharded/format/texts';
import { originalUrl } from '../../../../scripts/index-folder';

const record = { id: 'd#3', docId: 'd', title: 'Debian Policy', text: 'Packages must be signed.', index: 3 };
const raw = (v: unknown) => deflateSync(new TextEncoder().encode(JSON.stringify(v)));

describe('sharded passage records', () => {
  it('round-trips the place, and writes none when there is none', () => {
    const placed = {
      ...record,
      source: {
        page: 12,
        pageEnd: 13,
        pageLabel: '10',
        pageEndLabel: '11',
        headings: ['Policy', 'Signing'],
        url: 'docs/policy.pdf',
      },
    };
    expect(decodeText(encodeText(placed))).toEqual(placed);
    expect(decodeText(encodeText({ ...record, source: {} }))).toEqual(record);
    expect(decodeText(raw([record.id, record.docId, record.title, record.text, record.index]))).toEqual(record);
  });

  it('keeps only the well-formed parts of a fetched place', () => {
    const bad = decodeText(
      raw([
        ...Object.values(record),
        { page: -1, pageEnd: 'x', pageLabel: 'x', headings: [1], url: 'javascript:alert(1)', scanned: 'yes' },
      ]),
    );
    expect(bad.source).toEqual({});
    expect(decodeText(raw([...Object.values(record), { page: 2, url: 'https://example.org/a.pdf' }])).source).toEqual({
      page: 2,
      url: 'https://example.org/a.pdf',
    });
    expect(decodeText(raw([...Object.values(record), { url: 'data:text/html,<script>' }])).source).toEqual({});
    // A printed page label is short text, kept only beside the page it names.
    expect(decodeText(raw([...Object.values(record), { page: 3, pageLabel: 'x'.repeat(33) }])).source).toEqual({
      page: 3,
    });
    expect(() => decodeText(raw([...Object.values(record), {}, 'extra']))).toThrow(/malformed/);
  });

  it('links a folder file under the site path, each segment escaped', () => {
    expect(originalUrl('docs', 'policy/Debian Policy #1.pdf')).toBe('docs/policy/Debian%20Policy%20%231.pdf');
    expect(originalUrl('docs/', 'a.html')).toBe('docs/a.html');
  });
});
