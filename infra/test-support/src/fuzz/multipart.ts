/** Multipart uploads, well-formed and broken, around the smallest valid PNG. */
import fc from 'fast-check';
import { json, jsonHeaders, type Draft } from './values';

/** The smallest valid PNG (1×1). */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b0e1a10000000049454e44ae426082',
  'hex',
);

interface Part {
  name: string;
  filename?: string;
  type?: string;
  content: Buffer;
}

function multipartBody(boundary: string, parts: Part[], close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: ${disposition}\r\n${part.type ? `content-type: ${part.type}\r\n` : ''}\r\n`,
      ),
      part.content,
      Buffer.from('\r\n'),
    );
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export const multipartPayloads: fc.Arbitrary<Draft> = fc
  .tuple(
    fc.constantFrom(
      'valid png',
      'no closing boundary',
      'cut inside the file',
      'cut inside part headers',
      'wrong boundary',
      'no boundary parameter',
      '200-character boundary',
      'field too large',
      'too many parts',
      'file under another name',
      'no file',
      'empty body',
      'svg with script',
      'declared type mismatch',
      'filename with NUL and traversal',
      'cut mid-upload (connection closed)',
      'JSON instead of multipart',
    ),
    fc.integer({ min: 1, max: 1_000_000 }),
  )
  .map(([kind, n]) => {
    const boundary = `fuzz${n}`;
    const file: Part = { name: 'file', filename: 'a.png', type: 'image/png', content: PNG };
    const type = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const whole = multipartBody(boundary, [file]);
    const label = `multipart: ${kind}`;
    switch (kind) {
      case 'no closing boundary':
        return { label, headers: type, body: multipartBody(boundary, [file], false) };
      case 'cut inside the file':
        return { label, headers: type, body: whole.subarray(0, whole.indexOf(PNG) + 10) };
      case 'cut inside part headers':
        return { label, headers: type, body: whole.subarray(0, boundary.length + 20) };
      case 'wrong boundary':
        return {
          label,
          headers: { 'content-type': 'multipart/form-data; boundary=other' },
          body: whole,
        };
      case 'no boundary parameter':
        return { label, headers: { 'content-type': 'multipart/form-data' }, body: whole };
      case '200-character boundary': {
        const long = 'b'.repeat(200);
        return {
          label,
          headers: { 'content-type': `multipart/form-data; boundary=${long}` },
          body: multipartBody(long, [file]),
        };
      }
      case 'field too large':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [
            { name: 'name', content: Buffer.alloc(200_000, 0x61) },
            file,
          ]),
        };
      case 'too many parts':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [
            ...Array.from({ length: 50 }, (_, i) => ({ name: `f${i}`, content: Buffer.from('x') })),
            file,
          ]),
        };
      case 'file under another name':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [{ ...file, name: 'other' }]),
        };
      case 'no file':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [{ name: 'name', content: Buffer.from('a') }]),
        };
      case 'empty body':
        return { label, headers: type, body: Buffer.alloc(0) };
      case 'svg with script':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [
            {
              ...file,
              filename: 'a.svg',
              type: 'image/svg+xml',
              content: Buffer.from(
                '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
              ),
            },
          ]),
        };
      case 'declared type mismatch':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [{ ...file, filename: 'a.jpg', type: 'image/webp' }]),
        };
      case 'filename with NUL and traversal':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [{ ...file, filename: '../\u0000a.png' }]),
        };
      case 'cut mid-upload (connection closed)': {
        const big = multipartBody(boundary, [
          { ...file, content: Buffer.concat([PNG, Buffer.alloc(300_000, 1)]) },
        ]);
        return { label, headers: type, body: big, cutAfterBytes: 1000 + (n % 100_000) };
      }
      case 'JSON instead of multipart':
        return { label, headers: jsonHeaders, body: json({ file: 'a.png' }) };
      default:
        return { label, headers: type, body: whole };
    }
  });
