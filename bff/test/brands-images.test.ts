/**
 * Brands and images through the BFF, with the real identity-profile, brand
 * and media services: the public brand profile (brand fields only), the
 * brand profile form, uploads streamed through to media, and the live path
 * upload → media.image.stored → record updated → push to the owner's tabs.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { ImageStored } from '@raly/contracts/events';
import type { BrandRecord } from '@raly/contracts/records';
import type { RunningBff } from '../src/app';
import { connectLive, type RecordingSocket } from './support/sockets';
import { eventually, multipartWithFile, testStack, uniqueToken } from '@raly/test-support';
import { type BffBody, callBff, startTestBff } from '@raly/test-support/bff';
import {
  type RalySystem,
  registeredBrand,
  registeredCreator,
  startSystem,
} from '@raly/test-support/system';
import type { Me } from '@raly/contracts/bff-api';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b0e1a10000000049454e44ae426082',
  'hex',
);

let system: RalySystem;
let bff: RunningBff;
const sockets: RecordingSocket[] = [];

beforeAll(async () => {
  system = await startSystem({ media: true });
  bff = await startTestBff(await testStack(), {
    IDENTITY_URL: system.identityUrl,
    BRAND_URL: system.brandUrl,
    MEDIA_URL: system.mediaUrl,
    // What the BFF sends to identity-profile's internal routes (checkUsernameExists).
  });
});

afterAll(async () => {
  for (const { socket } of sockets) socket.close();
  await bff.stop();
  await system.stop();
});

async function live(token: string): Promise<RecordingSocket> {
  const socket = await connectLive(bff, token);
  sockets.push(socket);
  return socket;
}

async function uploadThroughBff(
  path: string,
  token: string,
  bytes: Buffer,
  name: string,
  mimeType: string,
) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)], { type: mimeType }), name);
  const response = await fetch(`${bff.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as BffBody<ImageStored> };
}

const brandForm = (brand: BrandRecord, changes: Record<string, unknown> = {}) => ({
  username: brand.username,
  company: brand.company,
  websiteUrl: brand.websiteUrl,
  bio: brand.bio,
  socials: brand.socials,
  ...changes,
});

async function myBrand(token: string): Promise<BrandRecord> {
  const me = await callBff<Me>(bff, 'GET', '/api/me', { token });
  assert.equal(me.status, 200);
  assert.ok(me.body.data.brand, 'the user has a brand');
  return me.body.data.brand;
}

describe('images through the BFF', () => {
  test("when a user uploads a profile image, then the answer carries its URL and the user's open tab receives user.updated with it", async () => {
    // Arrange
    const creator = await registeredCreator(system);
    const tab = await live(creator.accessToken);

    // Act
    const answer = await uploadThroughBff(
      '/api/images/user/profile',
      creator.accessToken,
      PNG,
      'me.png',
      'image/png',
    );

    // Assert
    assert.equal(answer.status, 201);
    assert.equal(answer.body.data.key, `user/profile-img/${creator.userId}.png`);
    const pushed = await eventually('user.updated with the uploaded image', async () =>
      tab.received.find(
        ([event, record]) => event === 'user.updated' && record.profileImg === answer.body.data.url,
      ),
    );
    assert.equal(pushed[1].id, creator.userId);
  });

  test("when a brand user uploads a cover image, then it is stored under the brand's id and the brand's tabs receive brand.updated", async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const tab = await live(brand.accessToken);

    // Act
    const answer = await uploadThroughBff(
      '/api/images/brand/cover',
      brand.accessToken,
      PNG,
      'cover.png',
      'image/png',
    );

    // Assert
    assert.equal(answer.status, 201);
    assert.equal(answer.body.data.key, `brand/cover-img/${brand.brandId}.png`);
    await eventually('brand.updated with the cover', async () =>
      tab.received.find(
        ([event, record]) => event === 'brand.updated' && record.coverImg === answer.body.data.url,
      ),
    );
  });

  test('when a creator uploads a brand image, then the answer is 403 and nothing is forwarded', async () => {
    // Arrange
    const creator = await registeredCreator(system);

    // Act
    const answer = await uploadThroughBff(
      '/api/images/brand/cover',
      creator.accessToken,
      PNG,
      'c.png',
      'image/png',
    );

    // Assert
    assert.equal(answer.status, 403);
  });

  test("when a 6 MB image is uploaded through the BFF, then media's 413 'Image size must be < 5MB' comes back", async () => {
    // Arrange
    const creator = await registeredCreator(system);

    // Act
    const answer = await uploadThroughBff(
      '/api/images/user/cover',
      creator.accessToken,
      Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]),
      'big.png',
      'image/png',
    );

    // Assert
    assert.equal(answer.status, 413);
    assert.equal(answer.body.error.message, messages.imageTooLarge);
  });
  test('when an upload through the BFF ends before its final boundary, then the answer is 400 and media keeps answering', async () => {
    // Arrange
    const creator = await registeredCreator(system);
    const cut = multipartWithFile({ name: 'cut.png', type: 'image/png', bytes: PNG }, 10);

    // Act
    const response = await fetch(`${bff.url}/api/images/user/cover`, {
      method: 'POST',
      headers: { authorization: `Bearer ${creator.accessToken}`, 'content-type': cut.contentType },
      body: new Uint8Array(cut.body),
      signal: AbortSignal.timeout(10_000),
    });

    // Assert
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as BffBody<unknown>).error.code, 'invalid-argument');
    assert.equal((await fetch(`${system.mediaUrl}/health/live`)).status, 200);
  });
});

describe('brands through the BFF', () => {
  test('when a brand user reads /api/me, then the brand record is there', async () => {
    // Arrange
    const brand = await registeredBrand(system);

    // Act
    const record = await myBrand(brand.accessToken);

    // Assert
    assert.equal(record.id, brand.brandId);
    assert.equal(record.username, brand.registration.username);
    assert.equal(record.company, brand.registration.company);
    assert.equal(record.websiteUrl, brand.registration.website);
    assert.deepEqual(record.permissions, {
      isAgency: false,
      isVerified: false,
      isSuspended: false,
    });
  });

  test("when a visitor reads a brand's public profile, then it carries brand fields only, never the contact's name or e-mail", async () => {
    // Arrange
    const brand = await registeredBrand(system);

    // Act
    const answer = await callBff<BrandRecord>(
      bff,
      'GET',
      `/api/brands/${brand.registration.username.toUpperCase()}`,
    );

    // Assert
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.id, brand.brandId);
    const text = JSON.stringify(answer.body);
    for (const secret of [
      brand.registration.email,
      brand.registration.firstName,
      brand.registration.lastName,
      brand.userId,
    ]) {
      assert.ok(!text.includes(secret), `public profile leaks ${secret}`);
    }
    assert.deepEqual(Object.keys(answer.body.data).sort(), [
      'bio',
      'company',
      'coverImg',
      'created',
      'id',
      'permissions',
      'profileImg',
      'socials',
      'username',
      'version',
      'websiteUrl',
    ]);
  });

  test('when no brand has the username, then the public profile answers 404', async () => {
    // Act
    const answer = await callBff(bff, 'GET', `/api/brands/nobody${uniqueToken(8)}`);

    // Assert
    assert.equal(answer.status, 404);
  });

  test("when the username in the path holds a NUL byte, then the public profile answers 400 'There was a problem with your request.', not a 500", async () => {
    // Act
    const answer = await callBff(bff, 'GET', '/api/brands/a%00b');

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.message, messages.requestProblem);
  });

  test("when a brand user saves the brand profile, then the answer and the brand's open tab show the change", async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const current = await myBrand(brand.accessToken);
    const tab = await live(brand.accessToken);
    const newUsername = `nb${uniqueToken(10)}`;
    const form = brandForm(current, {
      username: newUsername,
      company: 'Renamed Company',
      bio: 'We make very good things for very good creators.',
      socials: {
        x: 'https://x.com/acme',
        instagram: '',
        threads: '',
        discord: 'https://discord.gg/acme',
      },
    });

    // Act
    const answer = await callBff<BrandRecord>(bff, 'PATCH', '/api/brand', {
      token: brand.accessToken,
      body: form,
    });

    // Assert
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.username, newUsername);
    assert.equal(answer.body.data.company, 'Renamed Company');
    assert.equal(answer.body.data.socials.discord, 'https://discord.gg/acme');
    await eventually('brand.updated', async () =>
      tab.received.find(
        ([event, record]) => event === 'brand.updated' && record.company === 'Renamed Company',
      ),
    );
    assert.equal((await callBff(bff, 'GET', `/api/brands/${newUsername}`)).status, 200);
    assert.equal((await callBff(bff, 'GET', `/api/brands/${current.username}`)).status, 404);
    const oldTaken = await callBff(bff, 'POST', '/api/callable/checkUsernameExists', {
      body: { data: { username: current.username } },
    });
    assert.equal(oldTaken.body.data, false, 'the old username is released');
  });

  test('when the brand profile breaks a rule, then the answer is 400 with the spec message of that field', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const current = await myBrand(brand.accessToken);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ company: ' ' }, 'company', messages.companyRequired],
      [{ websiteUrl: 'acme.example' }, 'websiteUrl', messages.urlHttpOrHttps],
      [{ bio: 'Too short.' }, 'bio', messages.bioTooShort],
      [{ bio: 'x'.repeat(281) }, 'bio', messages.bioTooLong],
      [{ socials: { ...current.socials, x: 'not a url' } }, 'socials.x', messages.urlHttps],
      [{ username: 'ab' }, 'username', messages.usernameTooShort],
      [{ username: 'no-dashes' }, 'username', messages.usernameCharacters],
    ];

    for (const [changes, field, message] of cases) {
      // Act
      const answer = await callBff(bff, 'PATCH', '/api/brand', {
        token: brand.accessToken,
        body: brandForm(current, changes),
      });

      // Assert
      assert.equal(answer.status, 400, JSON.stringify(changes));
      assert.equal(answer.body.error.fields?.[field], message);
    }
  });

  test("when the new username belongs to a creator, then the answer is 409 'Username already exists. Try another.'; an unchanged username is not checked", async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const creator = await registeredCreator(system);
    const current = await myBrand(brand.accessToken);

    // Act
    const taken = await callBff(bff, 'PATCH', '/api/brand', {
      token: brand.accessToken,
      body: brandForm(current, { username: creator.registration.username }),
    });
    const unchanged = await callBff<BrandRecord>(bff, 'PATCH', '/api/brand', {
      token: brand.accessToken,
      body: brandForm(current, { company: 'Same Username Inc' }),
    });

    // Assert
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error.message, messages.usernameExists);
    assert.equal(unchanged.status, 200);
    assert.equal(unchanged.body.data.username, current.username);
  });

  test("when Postgres ends the brand service's connection under a profile save, then PATCH /api/brand answers 503 'There was a problem updating your account. Try again.' and the brand is unchanged", async () => {
    // Arrange: the brand's row is locked, so the save's UPDATE waits in its transaction.
    const brand = await registeredBrand(system);
    const current = await myBrand(brand.accessToken);
    const locker = await system.sql.brand.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM brands WHERE id = $1 FOR UPDATE', [brand.brandId]);
      const saving = callBff(bff, 'PATCH', '/api/brand', {
        token: brand.accessToken,
        body: brandForm(current, { company: 'Never Saved Inc' }),
      });

      // Act: as `npm run chaos` does, end the connection the save is using.
      await eventually('the save waits for the row lock', async () => {
        const { rowCount } = await system.sql.brand.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND query LIKE 'UPDATE%brands%'`,
        );
        return rowCount !== null && rowCount > 0;
      });
      const answer = await saving;

      // Assert
      assert.equal(answer.status, 503);
      assert.deepEqual(
        [answer.body.error.code, answer.body.error.message],
        ['unavailable', messages.updateAccountFailed],
      );
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    const after = await callBff<BrandRecord>(bff, 'GET', `/api/brands/${current.username}`);
    assert.equal(after.body.data.company, current.company);
  });

  test('when a creator saves a brand profile, then the answer is 403 and no brand changes', async () => {
    // Arrange
    const creator = await registeredCreator(system);

    // Act
    const answer = await callBff(bff, 'PATCH', '/api/brand', {
      token: creator.accessToken,
      body: {
        username: `x${uniqueToken(8)}`,
        company: 'X',
        websiteUrl: 'https://x.example',
        socials: {},
      },
    });

    // Assert
    assert.equal(answer.status, 403);
  });
});
