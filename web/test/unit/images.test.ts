import { test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { IMAGE_MAX_BYTES } from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import {
  checkImageFile,
  extensionOf,
  IMAGE_ACCEPT,
  imageUploadForm,
} from '../../src/lib/image-file.ts';

const aFile = (name: string, sizeBytes: number, type: string) =>
  new File([new Uint8Array(sizeBytes)], name, { type });

test('when the file is larger than 5 MB, then it is refused with "Image size must be < 5MB"', () => {
  const check = checkImageFile(aFile(`${randomUUID()}.png`, IMAGE_MAX_BYTES + 1, 'image/png'));

  assert.deepEqual(check, { ok: false, message: messages.imageTooLarge });
});

test('when the file is exactly 5 MB, then it may be uploaded', () => {
  const check = checkImageFile(aFile(`${randomUUID()}.webp`, IMAGE_MAX_BYTES, 'image/webp'));

  assert.equal(check.ok, true);
});

test('when the file is not png, jpeg, jpg, svg or webp, then it is refused with the generic problem text', () => {
  for (const name of [`${randomUUID()}.gif`, `${randomUUID()}.exe`, 'noextension']) {
    assert.deepEqual(
      checkImageFile(aFile(name, 10, 'image/gif')),
      { ok: false, message: messages.genericProblem },
      name,
    );
  }
});

test('when an upper-case JPG is chosen, then the payload has its name, the lowercase extension and its type', () => {
  const name = `Photo-${randomUUID()}.JPG`;
  const file = aFile(name, 100, 'image/jpeg');

  const check = checkImageFile(file);

  assert.ok(check.ok);
  assert.deepEqual(check.upload, { file, name, extension: 'jpg', mimeType: 'image/jpeg' });
});

test('when the browser reports no type, then the type of the extension is declared', () => {
  const check = checkImageFile(aFile(`${randomUUID()}.svg`, 100, ''));

  assert.ok(check.ok);
  assert.equal(check.upload.mimeType, 'image/svg+xml');
});

test('when the upload body is built, then it holds name, extension, mimeType, then the file, in that order', async () => {
  const name = `${randomUUID()}.png`;
  const file = aFile(name, 42, 'image/png');

  const form = imageUploadForm({ file, name, extension: 'png', mimeType: 'image/png' });

  assert.deepEqual([...form.keys()], ['name', 'extension', 'mimeType', 'file']);
  assert.equal(form.get('name'), name);
  assert.equal(form.get('extension'), 'png');
  assert.equal(form.get('mimeType'), 'image/png');
  const sent = form.get('file') as File;
  assert.equal(sent.name, name);
  assert.equal(sent.size, 42);
});

test('when the file picker asks what to accept, then it is exactly the spec types by extension and content type', () => {
  assert.deepEqual(IMAGE_ACCEPT.split(',').sort(), [
    '.jpeg',
    '.jpg',
    '.png',
    '.svg',
    '.webp',
    'image/jpeg',
    'image/png',
    'image/svg+xml',
    'image/webp',
  ]);
});

test('when a file name has dots or none, then the extension is the part after the last dot, or empty', () => {
  assert.equal(extensionOf('my.logo.final.PNG'), 'png');
  assert.equal(extensionOf('.hidden'), '');
  assert.equal(extensionOf('plain'), '');
});
