import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { eventTypes, topics } from '@raly/contracts/events';
import { messages } from '@raly/contracts/messages';
import type { BrandRecord } from '@raly/contracts/records';
import { Kafka, logLevel } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import {
  callApi as call,
  eventually,
  listenToTopic,
  type TopicListener,
  uniqueToken,
} from '@raly/test-support';
import {
  type RalySystem,
  registeredBrand,
  registeredCreator,
  startSystem,
} from '@raly/test-support/system';

let system: RalySystem;
let brandEvents: TopicListener;

beforeAll(async () => {
  system = await startSystem();
  brandEvents = await listenToTopic(system.stack.kafkaBrokers, topics.brandBrand);
});

afterAll(async () => {
  await brandEvents.stop();
  await system.stop();
});

/**
 * Calls an internal route as the service it is for: the membership check as
 * media, the rest (the registration saga) as identity-profile.
 */
const internal = <T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  serviceToken: string | (() => Promise<string>) = path.includes('/members/')
    ? system.serviceTokens.media
    : system.serviceTokens.identity,
) => call<T>(system.brandUrl, method, path, { body, serviceToken });

const envelopeOf = (value: Buffer | null) => JSON.parse(value?.toString() ?? '{}');

/** A `POST /brands` body for a new creator and a fresh username. */
const newBrandCommand = () => ({
  creatorUserId: uniqueToken(),
  username: `n${uniqueToken(8)}`,
  company: 'Co',
  websiteUrl: 'https://co.example',
});

describe('internal brand endpoints', () => {
  test('when a call lacks the service token, then POST /brands, DELETE /brands/:id and the membership check answer 401', async () => {
    // Arrange
    const command = newBrandCommand();

    // Act
    const answers = await Promise.all([
      call(system.brandUrl, 'POST', '/brands', { body: command }),
      internal('POST', '/brands', command, 'wrong-token-wrong-token'),
      call(system.brandUrl, 'DELETE', `/brands/${randomUUID()}`),
      call(system.brandUrl, 'GET', `/brands/${randomUUID()}/members/x`),
    ]);

    // Assert
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [401, 401, 401, 401],
    );
    const { rows } = await system.sql.brand.query(
      'SELECT count(*)::int AS n FROM brands WHERE username = $1',
      [command.username],
    );
    assert.equal(rows[0].n, 0);
  });

  test("when another service's token comes, then the route refuses it: notifications' (not meant for brand) 401, the BFF's on registration (identity-profile's route) 403, media's on verification (the BFF's route) 403", async () => {
    // Arrange
    const command = newBrandCommand();

    // Act
    const answers = await Promise.all([
      internal('POST', '/brands', command, system.serviceTokens.notifications),
      internal('POST', '/brands', command, system.serviceTokens.bff),
      internal(
        'PUT',
        `/brands/${randomUUID()}/verification`,
        { isVerified: true },
        system.serviceTokens.media,
      ),
    ]);

    // Assert
    assert.deepEqual(
      answers.map((answer) => [
        answer.status,
        (answer.body as { error?: { code?: string } }).error?.code,
      ]),
      [
        [401, 'unauthenticated'],
        [403, 'permission-denied'],
        [403, 'permission-denied'],
      ],
    );
  });

  test('when POST /brands is repeated with the same idempotency key, then one brand exists, all permissions are false, and brand.brand.created carries the snapshot', async () => {
    // Arrange
    const command = {
      creatorUserId: uniqueToken(),
      username: `Idem${uniqueToken(8)}`,
      company: 'Idem Co',
      websiteUrl: 'https://idem.example',
    };

    // Act
    const first = await internal<BrandRecord>('POST', '/brands', command);
    const second = await internal<BrandRecord>('POST', '/brands', command);

    // Assert
    assert.deepEqual([first.status, second.status], [201, 200]);
    assert.equal(second.body.data?.id, first.body.data?.id);
    const brand = first.body.data!;
    assert.equal(brand.username, command.username.toLowerCase());
    assert.deepEqual(brand.permissions, { isAgency: false, isVerified: false, isSuspended: false });
    assert.deepEqual(brand.socials, { x: '', instagram: '', threads: '', discord: '' });
    const membership = await internal(
      'GET',
      `/brands/${brand.id}/members/${command.creatorUserId}`,
    );
    assert.deepEqual(membership.body.data, { isMember: true, isAdmin: true });
    const event = await brandEvents.waitFor((message) => message.key?.toString() === brand.id);
    const envelope = envelopeOf(event.value);
    assert.equal(envelope.type, eventTypes.brandCreated);
    assert.deepEqual(envelope.data, brand);
    assert.equal(envelope.version, 1);
  });

  test('when a brand is deleted (saga compensation), then it and its members are gone and deleting again is fine', async () => {
    // Arrange
    const command = {
      creatorUserId: uniqueToken(),
      username: `del${uniqueToken(8)}`,
      company: 'Del Co',
      websiteUrl: 'https://del.example',
    };
    const created = (await internal<BrandRecord>('POST', '/brands', command)).body.data!;

    // Act
    const first = await internal('DELETE', `/brands/${created.id}`);
    const again = await internal('DELETE', `/brands/${created.id}`);

    // Assert
    assert.deepEqual([first.status, again.status], [204, 204]);
    assert.equal(
      (await call(system.brandUrl, 'GET', `/public/brands/${command.username}`)).status,
      404,
    );
    const membership = await internal(
      'GET',
      `/brands/${created.id}/members/${command.creatorUserId}`,
    );
    assert.deepEqual(membership.body.data, { isMember: false, isAdmin: false });
  });
});

describe('member and public brand endpoints', () => {
  test('when someone who is not a member reads or changes a brand, then the answer is 403 and the brand is unchanged', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const stranger = await registeredCreator(system);
    const before = await call<BrandRecord>(system.brandUrl, 'GET', `/brands/${brand.brandId}`, {
      token: brand.accessToken,
    });

    // Act
    const read = await call(system.brandUrl, 'GET', `/brands/${brand.brandId}`, {
      token: stranger.accessToken,
    });
    const write = await call(system.brandUrl, 'PATCH', `/brands/${brand.brandId}`, {
      token: stranger.accessToken,
      body: { ...before.body.data, company: 'Hijacked' },
    });
    const anonymous = await call(system.brandUrl, 'PATCH', `/brands/${brand.brandId}`, {
      body: { company: 'Hijacked' },
    });

    // Assert
    assert.deepEqual([read.status, write.status, anonymous.status], [403, 403, 401]);
    const after = await call<BrandRecord>(system.brandUrl, 'GET', `/brands/${brand.brandId}`, {
      token: brand.accessToken,
    });
    assert.equal(after.body.data?.company, before.body.data?.company);
  });

  test('when a member saves the form unchanged, then nothing is written and the version stays', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const current = (
      await call<BrandRecord>(system.brandUrl, 'GET', `/brands/${brand.brandId}`, {
        token: brand.accessToken,
      })
    ).body.data!;

    // Act
    const answer = await call<BrandRecord>(system.brandUrl, 'PATCH', `/brands/${brand.brandId}`, {
      token: brand.accessToken,
      body: {
        username: current.username.toUpperCase(),
        company: current.company,
        websiteUrl: current.websiteUrl,
        socials: {},
      },
    });

    // Assert
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data?.version, current.version);
  });

  test("when a brand changes its username to another brand's, then the answer is 409 'Username already exists. Try another.' and both keep theirs", async () => {
    // Arrange
    const first = await registeredBrand(system);
    const second = await registeredBrand(system);
    const current = (
      await call<BrandRecord>(system.brandUrl, 'GET', `/brands/${second.brandId}`, {
        token: second.accessToken,
      })
    ).body.data!;

    // Act
    const answer = await call(system.brandUrl, 'PATCH', `/brands/${second.brandId}`, {
      token: second.accessToken,
      body: { ...current, username: first.registration.username },
    });

    // Assert
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error?.message, messages.usernameExists);
    assert.equal(
      (await call<BrandRecord>(system.brandUrl, 'GET', `/public/brands/${current.username}`)).body
        .data?.id,
      second.brandId,
    );
  });

  test("when identity-profile's database ends the connection of the new username's claim, then the answer is 503 'There was a problem updating your account. Try again.' and the brand keeps its username", async () => {
    // Arrange: an open, uncommitted claim of the same username makes identity-profile's wait.
    const brand = await registeredBrand(system);
    const current = (
      await call<BrandRecord>(system.brandUrl, 'GET', `/brands/${brand.brandId}`, {
        token: brand.accessToken,
      })
    ).body.data!;
    const newUsername = `c${uniqueToken(10)}`;
    const rival = await system.sql.identity.connect();
    try {
      await rival.query('BEGIN');
      await rival.query(
        "INSERT INTO usernames (username, owner_type, owner_id) VALUES ($1, 'brand', $2)",
        [newUsername, randomUUID()],
      );
      const saving = call(system.brandUrl, 'PATCH', `/brands/${brand.brandId}`, {
        token: brand.accessToken,
        body: { ...current, username: newUsername },
      });

      // Act: as `npm run chaos` does, end the connection the claim is using.
      await eventually('the claim waits for the rival one', async () => {
        const { rowCount } = await system.sql.identity.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND query LIKE 'INSERT%usernames%'`,
        );
        return rowCount !== null && rowCount > 0;
      });
      const answer = await saving;

      // Assert
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assert.deepEqual(
        [answer.body.error?.code, answer.body.error?.message],
        ['unavailable', messages.updateAccountFailed],
      );
    } finally {
      await rival.query('ROLLBACK');
      rival.release();
    }
    const after = await call<BrandRecord>(system.brandUrl, 'GET', `/brands/${brand.brandId}`, {
      token: brand.accessToken,
    });
    assert.equal(after.body.data?.username, current.username);
  });

  test('when a visitor reads the public profile, then it holds brand fields only', async () => {
    // Arrange
    const brand = await registeredBrand(system);

    // Act
    const answer = await call(
      system.brandUrl,
      'GET',
      `/public/brands/${brand.registration.username}`,
    );

    // Assert
    assert.equal(answer.status, 200);
    const text = JSON.stringify(answer.body);
    for (const secret of [
      brand.registration.email,
      brand.registration.firstName,
      brand.registration.lastName,
      brand.userId,
    ]) {
      assert.ok(!text.includes(secret));
    }
  });
});

describe('bad input', () => {
  test('when a path parameter holds a NUL byte or is badly percent-encoded, then the answer is 400, and an id that is not a uuid is 404', async () => {
    // Arrange
    const brand = await registeredBrand(system);

    // Act
    const nul = await call(system.brandUrl, 'GET', '/public/brands/a%00b');
    const notUuid = await call(system.brandUrl, 'GET', '/brands/not-a-uuid', {
      token: brand.accessToken,
    });
    const badEncoding = await call(system.brandUrl, 'GET', '/public/brands/%ff');

    // Assert
    assert.deepEqual(
      [nul.status, notUuid.status, badEncoding.status],
      [400, 404, 400],
      JSON.stringify([nul.body, notUuid.body, badEncoding.body]),
    );
    assert.equal(nul.body.error?.message, messages.requestProblem);
  });

  test('when a brand form nests 20,000 arrays deep, then the answer is 400 and the brand is unchanged', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const read = () =>
      call<BrandRecord>(system.brandUrl, 'GET', `/brands/${brand.brandId}`, {
        token: brand.accessToken,
      });
    const before = (await read()).body.data;
    const deep = `{"bio":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;

    // Act
    const response = await fetch(`${system.brandUrl}/brands/${brand.brandId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${brand.accessToken}`, 'content-type': 'application/json' },
      body: deep,
    });

    // Assert
    assert.equal(response.status, 400);
    assert.deepEqual((await read()).body.data, before);
  });
});

describe('media.image.v1 consumer', () => {
  test('when the same image event arrives twice, then coverImg is set once (one version, one brand.brand.updated)', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const kafka = new Kafka({
      clientId: 'brand-test',
      brokers: system.stack.kafkaBrokers,
      logLevel: logLevel.NOTHING,
    });
    const producer = kafka.producer();
    await producer.connect();
    const url = `http://media.test/files/brand/cover-img/${brand.brandId}.png?v=1`;
    const envelope = {
      id: randomUUID(),
      type: eventTypes.imageStored,
      source: 'test',
      subject: brand.brandId,
      time: new Date().toISOString(),
      version: 1,
      data: {
        ownerType: 'brand',
        ownerId: brand.brandId,
        kind: 'cover',
        key: `brand/cover-img/${brand.brandId}.png`,
        url,
        contentType: 'image/png',
        sizeBytes: 10,
      },
    };

    // Act
    for (let i = 0; i < 2; i++) {
      await producer.send({
        topic: topics.mediaImage,
        messages: [{ key: brand.brandId, value: JSON.stringify(envelope) }],
      });
    }
    await producer.disconnect();

    // Assert
    const updated = await eventually('the brand record to carry the new picture', async () => {
      const record = (
        await call<BrandRecord>(system.brandUrl, 'GET', `/brands/${brand.brandId}`, {
          token: brand.accessToken,
        })
      ).body.data;
      return record?.coverImg === url ? record : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const later = (
      await call<BrandRecord>(system.brandUrl, 'GET', `/brands/${brand.brandId}`, {
        token: brand.accessToken,
      })
    ).body.data!;
    assert.equal(later.version, updated.version);
    const coverEvents = brandEvents.messages.filter(
      (message) =>
        message.key?.toString() === brand.brandId &&
        envelopeOf(message.value).data.coverImg === url,
    );
    assert.equal(coverEvents.length, 1);
  });
});
