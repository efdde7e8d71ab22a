/**
 * Reads the one file of a multipart/form-data upload (spec §3 image upload
 * payload: file, name, extension, mimeType) while it streams in, keeping at
 * most `maxBytes` in memory: once the file crosses the limit the read stops
 * with 'Image size must be < 5MB' and the rest of the body is discarded
 * unread, never buffered.
 */
import type { Request } from 'express';
import busboy from 'busboy';
import type { DeclaredFile } from '../domain/image-content';
import { mediaErrors } from '../domain/errors';

/** Room for the multipart boundaries and the small fields around the file, in bytes. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** A body busboy cannot read to its end (cut off, broken boundaries, the client gone). */
const malformed = (error: unknown) =>
  mediaErrors.imageRejected(`Malformed upload: ${(error as Error).message}`);

/** The uploaded file: what the uploader declared and the bytes. */
export interface ReceivedFile {
  declared: DeclaredFile;
  bytes: Buffer;
}

/**
 * @param maxBytes the largest accepted file (IMAGE_MAX_BYTES)
 * @returns the file of the form field `file`, with the fields `name`, `extension`, `mimeType` when sent before it
 * @throws AppError payload-too-large 'Image size must be < 5MB'; unsupported-media-type for a body that
 *   is not multipart/form-data; invalid-argument for a body without a file or one that ends early
 *   (nothing is returned then, so nothing partial is stored)
 */
export function receiveFile(req: Request, maxBytes: number): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    const declaredLength = Number(req.headers['content-length'] ?? 0);
    if (declaredLength > maxBytes + MULTIPART_OVERHEAD_BYTES) {
      reject(mediaErrors.imageTooLarge());
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // busboy signals `limit` on reaching fileSize; one byte more than allowed is too large.
        limits: { files: 1, fileSize: maxBytes + 1, fields: 8, fieldSize: 1024, parts: 12 },
      });
    } catch {
      // busboy throws on a missing or non-multipart content type.
      reject(mediaErrors.notMultipart());
      return;
    }
    const fields: Record<string, string> = {};
    let file: ReceivedFile | undefined;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      // Discard the rest unread, so the answer reaches the client.
      req.resume();
      reject(error);
    };

    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (fieldName, stream, info) => {
      if (fieldName !== 'file' || file) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBytes) chunks.push(chunk);
      });
      stream.on('limit', () => fail(mediaErrors.imageTooLarge()));
      // A body cut off inside the file ('Unexpected end of form') errors the file stream as
      // well as the parser; unheard, that 'error' event would end the process.
      stream.on('error', (error) => fail(malformed(error)));
      stream.on('end', () => {
        if (settled || stream.truncated) return;
        file = {
          declared: {
            name: fields.name || info.filename || '',
            extension: fields.extension || undefined,
            mimeType: fields.mimeType || info.mimeType,
          },
          bytes: Buffer.concat(chunks, size),
        };
      });
    });
    parser.on('close', () => {
      if (settled) return;
      if (!file) {
        fail(mediaErrors.imageRejected('No file in the upload'));
        return;
      }
      settled = true;
      resolve(file);
    });
    parser.on('error', (error) => fail(malformed(error)));
    req.on('error', (error) => fail(malformed(error)));
    req.pipe(parser);
  });
}
