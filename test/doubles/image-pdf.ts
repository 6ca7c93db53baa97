// Writes an image-only PDF (what a scanner produces): each page is one grey image
// (zlib-compressed 8-bit pixels, /FlateDecode) drawn over the whole page, with no
// text layer. Pages may share one image, so a PDF of thousands of pages stays small.
export interface GreyImage {
  width: number;
  height: number;
  /** zlib (RFC 1950) stream of width × height grey bytes. */
  zlib: Uint8Array;
}

export function imagePdf(
  images: GreyImage[],
  pageImage: number[] = images.map((_, i) => i),
  pagePt: [number, number] = [612, 792],
): Uint8Array {
  const parts: Array<string | Uint8Array> = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (p: string | Uint8Array) => {
    parts.push(p);
    length += typeof p === 'string' ? p.length : p.length;
  };
  let id = 0;
  const obj = (body: string | Array<string | Uint8Array>) => {
    offsets[++id] = length;
    push(`${id} 0 obj\n`);
    for (const p of Array.isArray(body) ? body : [body]) push(p);
    push('\nendobj\n');
    return id;
  };
  push('%PDF-1.4\n');
  const [w, h] = pagePt;
  const catalog = obj('<< /Type /Catalog /Pages 2 0 R >>');
  const pagesId = catalog + 1;
  const firstImage = pagesId + 1;
  const firstPage = firstImage + images.length * 1;
  const kids = pageImage.map((_, i) => `${firstPage + i * 2} 0 R`).join(' ');
  obj(`<< /Type /Pages /Kids [${kids}] /Count ${pageImage.length} >>`);
  for (const img of images) {
    obj([
      `<< /Type /XObject /Subtype /Image /Width ${img.width} /Height ${img.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${img.zlib.length} >>\nstream\n`,
      img.zlib,
      '\nendstream',
    ]);
  }
  pageImage.forEach((k, i) => {
    const content = `q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`;
    obj(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im0 ${firstImage + k} 0 R >> >> /Contents ${firstPage + i * 2 + 1} 0 R >>`,
    );
    obj(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  });
  const xref = length;
  let tail = `xref\n0 ${id + 1}\n0000000000 65535 f \n`;
  for (let k = 1; k <= id; k++) tail += `${String(offsets[k]).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${id + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  push(tail);
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    const bytes = typeof p === 'string' ? Uint8Array.from(p, (c) => c.charCodeAt(0)) : p;
    out.set(bytes, at);
    at += bytes.length;
  }
  return out;
}
