/** Uploads by size, framing and content: limits answered early, types checked by their bytes, SVGs sanitised. */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test } from 'vitest';
import { IMAGE_MAX_BYTES } from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import { multipartWithFile } from '@raly/test-support';
import { registeredCreator } from '@raly/test-support/system';
import {
  JPEG,
  objectExists,
  PNG,
  rawPost,
  system,
  upload,
  useMediaSystem,
  type UploadAnswer,
} from './images-support';

useMediaSystem();

describe('POST /images/:ownerType/:kind: size, framing and content', () => {
  test("when a 6 MB file streams in without a declared length, then the answer is 413 'Image size must be < 5MB' before the body ends and nothing is stored", async () => {
    // Arrange
    const creator = await registeredCreator(system);
    const boundary = 'raly-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const file = Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024 - PNG.length, 7)]);
    const lastChunkBytes = 64 * 1024;

    // Act: send all but the last 64 KB and the closing boundary, then wait for the answer
    const { status, body, endedBeforeAnswer } = await new Promise<{
      status: number;
      body: UploadAnswer['body'];
      endedBeforeAnswer: boolean;
    }>((resolve, reject) => {
      const url = new URL(`${system.mediaUrl}/images/user/cover`);
      let ended = false;
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            authorization: `Bearer ${creator.accessToken}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'transfer-encoding': 'chunked',
          },
        },
        (response) => {
          const endedBeforeAnswer = ended;
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString()),
              endedBeforeAnswer,
            }),
          );
          ended = true;
          req.end(
            Buffer.concat([
              file.subarray(file.length - lastChunkBytes),
              Buffer.from(`\r\n--${boundary}--\r\n`),
            ]),
          );
        },
      );
      req.on('error', reject);
      req.write(head);
      req.write(file.subarray(0, file.length - lastChunkBytes));
    });

    // Assert
    assert.equal(status, 413);
    assert.equal(body.error.message, messages.imageTooLarge);
    assert.equal(endedBeforeAnswer, false, 'answered while the body was still streaming');
    assert.equal(await objectExists(`user/cover-img/${creator.userId}.png`), false);
    const { rows } = await system.sql.media!.query(
      'SELECT * FROM images WHERE owner_id = $1 AND kind = $2',
      [creator.userId, 'cover'],
    );
    assert.equal(rows.length, 0);
  });

  test('when the multipart body ends a few bytes before its final boundary, then the answer is 400, nothing is stored and media keeps answering', async () => {
    // Arrange
    const creator = await registeredCreator(system);
    const cut = multipartWithFile({ name: 'cut.png', type: 'image/png', bytes: PNG }, 10);

    // Act
    const answer = await rawPost(
      '/images/user/cover',
      {
        authorization: `Bearer ${creator.accessToken}`,
        'content-type': cut.contentType,
        'content-length': String(cut.body.length),
      },
      cut.body,
    );

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.code, 'invalid-argument');
    assert.equal(answer.body.error.message, messages.genericProblem);
    assert.match(answer.body.error.fields?.file ?? '', /Unexpected end of form/);
    assert.equal((await fetch(`${system.mediaUrl}/health/live`)).status, 200);
    assert.equal(await objectExists(`user/cover-img/${creator.userId}.png`), false);
    const images = await system.sql.media!.query(
      'SELECT 1 FROM images WHERE owner_id = $1 AND kind = $2',
      [creator.userId, 'cover'],
    );
    const events = await system.sql.media!.query(
      "SELECT 1 FROM outbox WHERE key = $1 AND envelope::text LIKE '%cover-img%'",
      [creator.userId],
    );
    assert.deepEqual([images.rows.length, events.rows.length], [0, 0]);
  });

  test('when the upload is JSON instead of multipart/form-data, then the answer is 415 at once', async () => {
    // Arrange
    const creator = await registeredCreator(system);

    // Act
    const answer = await rawPost(
      '/images/user/profile',
      { authorization: `Bearer ${creator.accessToken}`, 'content-type': 'application/json' },
      Buffer.from(JSON.stringify({ file: 'x' })),
    );

    // Assert
    assert.equal(answer.status, 415);
    assert.equal(answer.body.error.code, 'unsupported-media-type');
  });

  test("when the declared length is over 5 MB, then the answer is 413 'Image size must be < 5MB' without reading the body", async () => {
    // Arrange
    const creator = await registeredCreator(system);

    // Act
    const answer = await upload('/images/user/profile', creator.accessToken, {
      bytes: Buffer.concat([PNG, Buffer.alloc(IMAGE_MAX_BYTES + 128 * 1024)]),
      name: 'big.png',
      mimeType: 'image/png',
    });

    // Assert
    assert.equal(answer.status, 413);
    assert.equal(answer.body.error.message, messages.imageTooLarge);
    assert.equal(await objectExists(`user/profile-img/${creator.userId}.png`), false);
  });

  test("when a file of exactly 5 MB is uploaded, then it is accepted, and one byte more gets 'Image size must be < 5MB'", async () => {
    // Arrange
    const creator = await registeredCreator(system);
    const exactly = Buffer.concat([PNG, Buffer.alloc(IMAGE_MAX_BYTES - PNG.length, 0)]);

    // Act
    const accepted = await upload('/images/user/cover', creator.accessToken, {
      bytes: exactly,
      name: 'a.png',
      mimeType: 'image/png',
    });
    const refused = await upload('/images/user/cover', creator.accessToken, {
      bytes: Buffer.concat([exactly, Buffer.alloc(1)]),
      name: 'b.png',
      mimeType: 'image/png',
    });

    // Assert
    assert.equal(accepted.status, 201);
    assert.equal(accepted.body.data.sizeBytes, IMAGE_MAX_BYTES);
    assert.equal(refused.status, 413);
    assert.equal(refused.body.error.message, messages.imageTooLarge);
  });

  test('when a .png is really HTML, then it is rejected and nothing is stored', async () => {
    // Arrange
    const creator = await registeredCreator(system);

    // Act
    const answer = await upload('/images/user/profile', creator.accessToken, {
      bytes: '<html><script>alert(1)</script></html>',
      name: 'evil.png',
      mimeType: 'image/png',
    });

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.message, messages.genericProblem);
    assert.equal(await objectExists(`user/profile-img/${creator.userId}.png`), false);
  });

  test('when the extension and the declared type disagree, or the type is not accepted, then the upload is rejected', async () => {
    // Arrange
    const creator = await registeredCreator(system);

    // Act
    const mismatch = await upload('/images/user/profile', creator.accessToken, {
      bytes: PNG,
      name: 'x.png',
      mimeType: 'image/jpeg',
    });
    const gif = await upload('/images/user/profile', creator.accessToken, {
      bytes: 'GIF89a....',
      name: 'x.gif',
      mimeType: 'image/gif',
    });
    const jpegNamedPng = await upload('/images/user/profile', creator.accessToken, {
      bytes: JPEG,
      name: 'x.png',
      mimeType: 'image/png',
    });

    // Assert
    assert.deepEqual([mismatch.status, gif.status, jpegNamedPng.status], [400, 400, 400]);
  });

  test('when an SVG carries a script, event handlers, foreignObject and external references, then it is stored sanitised and served with a CSP', async () => {
    // Arrange
    const creator = await registeredCreator(system);
    const svg = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10" fill="red" onclick="steal()"/><image href="https://evil.example/x.png"/><image xlink:href="javascript:alert(3)"/><foreignObject><div>x</div></foreignObject><circle r="2" fill="url(https://evil.example/p)"/></svg>`;

    // Act
    const answer = await upload('/images/user/profile', creator.accessToken, {
      bytes: svg,
      name: 'logo.svg',
      mimeType: 'image/svg+xml',
    });

    // Assert
    assert.equal(answer.status, 201);
    assert.equal(answer.body.data.key, `user/profile-img/${creator.userId}.svg`);
    const file = await fetch(answer.body.data.url);
    assert.equal(file.headers.get('content-type'), 'image/svg+xml');
    assert.equal(
      file.headers.get('content-security-policy'),
      "default-src 'none'; style-src 'unsafe-inline'",
    );
    const stored = await file.text();
    assert.match(stored, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(stored, /<rect/);
    for (const forbidden of [
      /<script/i,
      /onload/i,
      /onclick/i,
      /evil\.example/,
      /javascript:/i,
      /foreignObject/i,
    ]) {
      assert.doesNotMatch(stored, forbidden);
    }
  });

  test('when a user replaces a PNG with an SVG, then the URL version grows and the old key is removed', async () => {
    // Arrange
    const creator = await registeredCreator(system);
    const first = await upload('/images/user/cover', creator.accessToken, {
      bytes: PNG,
      name: 'a.png',
      mimeType: 'image/png',
    });

    // Act
    const second = await upload('/images/user/cover', creator.accessToken, {
      bytes: '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>',
      name: 'b.svg',
      mimeType: 'image/svg+xml',
    });

    // Assert
    assert.equal(second.status, 201);
    assert.notEqual(second.body.data.url, first.body.data.url);
    assert.equal(await objectExists(`user/cover-img/${creator.userId}.png`), false);
    assert.equal(await objectExists(`user/cover-img/${creator.userId}.svg`), true);
  });
});
