import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { IMAGE_MAX_BYTES } from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import type { ImageStored } from '@raly/contracts/events';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import {
  callApi as call,
  eventually,
  identityServiceToken,
  listenToTopic,
  multipartWithFile,
  passwordGrant,
  sendRaw,
  type TopicListener,
} from '@raly/test-support';
import {
  type RalySystem,
  registeredBrand,
  registeredCreator,
  startSystem,
} from '@raly/test-support/system';

/** The smallest valid PNG (1×1), and the first bytes of a JPEG and a WebP with valid magic numbers. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b0e1a10000000049454e44ae426082',
  'hex',
);
const JPEG = Buffer.concat([
  Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
  Buffer.alloc(200, 1),
  Buffer.from('ffd9', 'hex'),
]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x24, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.from([0x18, 0, 0, 0]),
  Buffer.alloc(24, 0),
]);

let system: RalySystem;
let s3: S3Client;
let imageEvents: TopicListener;

beforeAll(async () => {
  system = await startSystem({ media: true });
  s3 = new S3Client({
    endpoint: system.stack.s3.endpoint,
    region: system.stack.s3.region,
    forcePathStyle: true,
    credentials: {
      accessKeyId: system.stack.s3.accessKeyId,
      secretAccessKey: system.stack.s3.secretAccessKey,
    },
  });
  imageEvents = await listenToTopic(system.stack.kafkaBrokers, 'media.image.v1');
});

afterAll(async () => {
  await imageEvents.stop();
  s3.destroy();
  await system.stop();
});

/**
 * Media's answer to an upload (docs/api.md): `data` on 201, `error` otherwise. Both are typed as
 * present so a test that has asserted the status reads the half it expects.
 */
interface UploadAnswer {
  status: number;
  body: {
    data: ImageStored;
    error: { code: string; message: string; fields?: Record<string, string> };
  };
}

/** Uploads one file as multipart/form-data (fields name, extension, mimeType, file). */
async function upload(
  path: string,
  token: string | undefined,
  file: { bytes: Buffer | string; name: string; mimeType: string },
) {
  const form = new FormData();
  form.set('name', file.name);
  form.set('mimeType', file.mimeType);
  form.set(
    'file',
    new Blob([typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes)], {
      type: file.mimeType,
    }),
    file.name,
  );
  const response = await fetch(`${system.mediaUrl}${path}`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: response.status, body: (await response.json()) as UploadAnswer['body'] };
}

/** Posts raw bytes to media with exactly these headers (bodies `fetch` cannot make: cut off, hand-built). */
const rawPost = (path: string, headers: Record<string, string>, body: Buffer) =>
  sendRaw<UploadAnswer['body']>(`${system.mediaUrl}${path}`, { headers, body });

async function objectExists(key: string): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: system.stack.s3.bucket, Key: key }));
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a download URL through this test's media service. Kafka topics are
 * shared: another Raly running on the stack may have made the default
 * picture (same bucket, same key and bytes) under its own MEDIA_PUBLIC_URL.
 */
const fetchThroughOurMedia = (url: string) => {
  const { pathname, search } = new URL(url);
  return fetch(`${system.mediaUrl}${pathname}${search}`);
};

const myRecord = async (token: string) =>
  (await call<UserRecord>(system.identityUrl, 'GET', '/users/me', { token })).body.data!;

describe('POST /images/:ownerType/:kind', () => {
  test('when a user uploads a PNG profile image, then it is stored at user/profile-img/{uid}.png with its type, an event is published and the record shows its URL', async () => {
    // Arrange
    const creator = await registeredCreator(system);

    // Act
    const answer = await upload('/images/user/profile', creator.accessToken, {
      bytes: PNG,
      name: 'me.png',
      mimeType: 'image/png',
    });

    // Assert
    assert.equal(answer.status, 201);
    const key = `user/profile-img/${creator.userId}.png`;
    assert.equal(answer.body.data.key, key);
    assert.match(answer.body.data.url, new RegExp(`^${system.mediaUrl}/files/${key}\\?v=\\d+$`));
    const file = await fetch(answer.body.data.url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), PNG);
    const event = await imageEvents.waitFor(
      (message) => message.value?.toString().includes(answer.body.data.url) ?? false,
    );
    assert.equal(event.key?.toString(), creator.userId);
    const record = await eventually('the profile picture on the user record', async () => {
      const me = await myRecord(creator.accessToken);
      return me.profileImg === answer.body.data.url ? me : undefined;
    });
    assert.equal(record.profileImg, answer.body.data.url);
  });

  test('when a user uploads a JPG cover image, then the key is user/cover-img/{uid}.jpg and coverImg is set', async () => {
    // Arrange
    const creator = await registeredCreator(system);

    // Act
    const answer = await upload('/images/user/cover', creator.accessToken, {
      bytes: JPEG,
      name: 'c.jpg',
      mimeType: 'image/jpeg',
    });

    // Assert
    assert.equal(answer.status, 201);
    assert.equal(answer.body.data.key, `user/cover-img/${creator.userId}.jpg`);
    assert.equal(answer.body.data.contentType, 'image/jpeg');
    await eventually('the cover picture on the user record', async () =>
      (await myRecord(creator.accessToken)).coverImg === answer.body.data.url ? true : undefined,
    );
  });

  test("when a brand's member uploads a WebP cover, then it is stored at brand/cover-img/{brandId}.webp and the brand's coverImg is set", async () => {
    // Arrange
    const brand = await registeredBrand(system);

    // Act
    const answer = await upload(`/images/brand/cover?ownerId=${brand.brandId}`, brand.accessToken, {
      bytes: WEBP,
      name: 'cover.webp',
      mimeType: 'image/webp',
    });

    // Assert
    assert.equal(answer.status, 201);
    assert.equal(answer.body.data.key, `brand/cover-img/${brand.brandId}.webp`);
    assert.ok(await objectExists(`brand/cover-img/${brand.brandId}.webp`));
    await eventually('the picture on the brand record', async () => {
      const record = await call<BrandRecord>(system.brandUrl, 'GET', `/brands/${brand.brandId}`, {
        token: brand.accessToken,
      });
      return record.body.data?.coverImg === answer.body.data.url ? true : undefined;
    });
  });

  test("when someone who is not a member uploads a brand's image, then the answer is 403 and nothing is stored", async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const stranger = await registeredCreator(system);

    // Act
    const answer = await upload(
      `/images/brand/profile?ownerId=${brand.brandId}`,
      stranger.accessToken,
      {
        bytes: PNG,
        name: 'x.png',
        mimeType: 'image/png',
      },
    );

    // Assert
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error.message, messages.genericProblem);
    assert.equal(await objectExists(`brand/profile-img/${brand.brandId}.png`), false);
  });

  test('when a brand image names no brand, then the answer is 400; when it names a brand that does not exist, then 403', async () => {
    // Arrange
    const member = await registeredBrand(system);
    const file = { bytes: PNG, name: 'x.png', mimeType: 'image/png' };

    // Act
    const withoutBrand = await upload('/images/brand/profile', member.accessToken, file);
    const unknownBrand = await upload(
      `/images/brand/profile?ownerId=${randomUUID()}`,
      member.accessToken,
      file,
    );

    // Assert
    assert.equal(withoutBrand.status, 400);
    assert.equal(withoutBrand.body.error.code, 'invalid-argument');
    assert.ok(withoutBrand.body.error.fields?.ownerId);
    assert.equal(unknownBrand.status, 403);
    assert.equal(unknownBrand.body.error.message, messages.genericProblem);
  });

  test("when a user uploads another user's image, then the answer is 403 and nothing is stored", async () => {
    // Arrange
    const victim = await registeredCreator(system);
    const attacker = await registeredCreator(system);

    // Act
    const answer = await upload(
      `/images/user/cover?ownerId=${victim.userId}`,
      attacker.accessToken,
      {
        bytes: PNG,
        name: 'x.png',
        mimeType: 'image/png',
      },
    );

    // Assert
    assert.equal(answer.status, 403);
    assert.equal(await objectExists(`user/cover-img/${victim.userId}.png`), false);
  });

  test('when there is no access token, then the answer is 401', async () => {
    // Act
    const answer = await upload('/images/user/profile', undefined, {
      bytes: PNG,
      name: 'x.png',
      mimeType: 'image/png',
    });

    // Assert
    assert.equal(answer.status, 401);
  });

  test("when the token is the user's ID token or raly-identity's service-account token, then the upload answers 401 and nothing is stored", async () => {
    // Arrange
    const creator = await registeredCreator(system);
    const { id_token: idToken } = await passwordGrant(
      system.stack,
      creator.registration.email,
      creator.registration.password,
    );
    const serviceToken = await identityServiceToken(system.stack);
    assert.ok(idToken);

    for (const token of [idToken, serviceToken]) {
      // Act
      const answer = await upload(`/images/user/cover?ownerId=${creator.userId}`, token, {
        bytes: PNG,
        name: 'x.png',
        mimeType: 'image/png',
      });

      // Assert
      assert.equal(answer.status, 401);
      assert.equal(answer.body.error.code, 'unauthenticated');
    }
    assert.equal(await objectExists(`user/cover-img/${creator.userId}.png`), false);
  });

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

describe('default pictures', () => {
  test("when a creator registers, then their profileImg becomes an SVG with their username's initial at user/profile-img/{uid}.svg", async () => {
    // Act
    const creator = await registeredCreator(system);

    // Assert
    const record = await eventually('a default profile picture on the user record', async () => {
      const me = await myRecord(creator.accessToken);
      return me.profileImg ? me : undefined;
    });
    assert.match(
      record.profileImg,
      new RegExp(`/files/user/profile-img/${creator.userId}\\.svg\\?v=1$`),
    );
    const svg = await (await fetchThroughOurMedia(record.profileImg)).text();
    assert.match(svg, new RegExp(`>${creator.registration.username[0]!.toUpperCase()}</text>`));
  });

  test("when a brand registers, then the brand shows its company's initials and its user their name's initials", async () => {
    // Act
    const brand = await registeredBrand(system, {
      company: 'Blue Ocean Labs',
      firstName: 'Grace',
      lastName: 'Hopper',
    });

    // Assert
    const brandRecord = await eventually('a default picture on the brand record', async () => {
      const answer = await call<BrandRecord>(system.brandUrl, 'GET', `/brands/${brand.brandId}`, {
        token: brand.accessToken,
      });
      return answer.body.data?.profileImg ? answer.body.data : undefined;
    });
    assert.match(
      brandRecord.profileImg,
      new RegExp(`/files/brand/profile-img/${brand.brandId}\\.svg\\?v=1$`),
    );
    assert.match(await (await fetchThroughOurMedia(brandRecord.profileImg)).text(), />BO<\/text>/);
    const userRecord = await eventually(
      "a default picture on the brand user's record",
      async () => {
        const me = await myRecord(brand.accessToken);
        return me.profileImg ? me : undefined;
      },
    );
    assert.match(await (await fetchThroughOurMedia(userRecord.profileImg)).text(), />GH<\/text>/);
  });
});
