/** Uploads by owner and token (who may store which image), and the default pictures of new accounts. */
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { BrandRecord } from '@raly/contracts/records';
import {
  callApi as call,
  eventually,
  identityServiceToken,
  passwordGrant,
} from '@raly/test-support';
import { registeredBrand, registeredCreator } from '@raly/test-support/system';
import {
  fetchThroughOurMedia,
  imageEvents,
  JPEG,
  myRecord,
  objectExists,
  PNG,
  system,
  upload,
  useMediaSystem,
  WEBP,
} from './images-support';

useMediaSystem();

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

  test('when the brand database ends the connection of the membership check, then the upload answers 503 and nothing is stored', async () => {
    // Arrange: a lock on the members table makes the brand service's membership read wait.
    const brand = await registeredBrand(system);
    const locker = await system.sql.brand.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE brand_members IN ACCESS EXCLUSIVE MODE');
      const uploading = upload(
        `/images/brand/profile?ownerId=${brand.brandId}`,
        brand.accessToken,
        {
          bytes: PNG,
          name: 'b.png',
          mimeType: 'image/png',
        },
      );

      // Act: as `npm run chaos` does, end the connection the check is reading with.
      await eventually('the membership read waits for the lock', async () => {
        const { rowCount } = await system.sql.brand.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND query LIKE 'SELECT%brand_members%'`,
        );
        return rowCount !== null && rowCount > 0;
      });
      const answer = await uploading;

      // Assert
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assert.deepEqual(
        [answer.body.error.code, answer.body.error.message],
        ['unavailable', messages.genericProblem],
      );
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
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
