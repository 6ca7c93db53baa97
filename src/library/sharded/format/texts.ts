// texts.bin: one deflated JSON passage per record, addressed by the rows' pointers.
import { deflateSync, inflateSync } from 'fflate';
import type { PassageSource } from '../../../core/source-location';

/** One passage as stored: what the page needs to show and cite it. */
export interface TextRecord {
  id: string;
  docId: string;
  title: string;
  text: string;
  index: number;
  /** Where it stands in its document, and the original's address on the site, where the writer knew them (a sixth element, written only then). */
  source?: PassageSource;
}

export function encodeText(p: TextRecord): Uint8Array {
  const fields: unknown[] = [p.id, p.docId, p.title, p.text, p.index];
  if (p.source && Object.keys(p.source).length > 0) fields.push(p.source);
  return deflateSync(new TextEncoder().encode(JSON.stringify(fields)), { level: 9 });
}

export function decodeText(bytes: Uint8Array): TextRecord {
  const v: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inflateSync(bytes)));
  if (!Array.isArray(v) || (v.length !== 5 && v.length !== 6) || typeof v[0] !== 'string' || typeof v[3] !== 'string')
    throw new Error('passage record is malformed');
  const source = v.length === 6 ? checkedSource(v[5]) : undefined;
  return {
    id: v[0],
    docId: String(v[1]),
    title: String(v[2]),
    text: v[3],
    index: Number(v[4]),
    ...(source ? { source } : {}),
  };
}

/** A corpus is fetched data: only well-formed parts of a place are kept, anything else is dropped. */
function checkedSource(raw: unknown): PassageSource | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  const page = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : undefined);
  const out: PassageSource = {};
  const first = page(r.page);
  const last = page(r.pageEnd);
  if (first !== undefined) out.page = first;
  if (first !== undefined && last !== undefined && last > first) out.pageEnd = last;
  const label = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 32 ? v : undefined);
  if (out.page !== undefined && label(r.pageLabel) !== undefined) out.pageLabel = label(r.pageLabel)!;
  if (out.pageEnd !== undefined && label(r.pageEndLabel) !== undefined) out.pageEndLabel = label(r.pageEndLabel)!;
  if (Array.isArray(r.headings) && r.headings.every((h) => typeof h === 'string'))
    out.headings = (r.headings as string[]).slice(0, 12).map((h) => h.slice(0, 200));
  if (r.scanned === true) out.scanned = true;
  if (typeof r.url === 'string' && r.url.length < 2000 && !/^[a-z][a-z0-9+.-]*:/i.test(r.url.replace(/^https?:/i, '')))
    out.url = r.url;
  return out;
}
