/**
 * A one-page PDF showing a JPEG at the given page size (points). JPEG data goes in as is
 * (DCTDecode), so this costs no re-encoding and no PDF library.
 */
export function jpegToPdf(
  jpeg: Uint8Array,
  pixelWidth: number,
  pixelHeight: number,
  pageWidth: number,
  pageHeight: number,
): Buffer {
  const w = pageWidth.toFixed(2);
  const h = pageHeight.toFixed(2);
  const content = `q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q\n`;
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (chunk: string | Uint8Array) => {
    const b = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : Buffer.from(chunk);
    parts.push(b);
    length += b.length;
  };
  const object = (n: number, body: string | Uint8Array[]) => {
    offsets[n] = length;
    push(`${n} 0 obj\n`);
    if (typeof body === 'string') push(body);
    else for (const b of body) push(b);
    push('\nendobj\n');
  };

  push('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(
    3,
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>`,
  );
  object(4, [
    Buffer.from(
      `<< /Type /XObject /Subtype /Image /Width ${pixelWidth} /Height ${pixelHeight} /ColorSpace /DeviceRGB ` +
        `/BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
      'latin1',
    ),
    jpeg,
    Buffer.from('\nendstream', 'latin1'),
  ]);
  object(5, `<< /Length ${content.length} >>\nstream\n${content}endstream`);
  const xref = length;
  push(`xref\n0 6\n0000000000 65535 f \n`);
  for (let n = 1; n <= 5; n++) push(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}
