/**
 * The Kafka → Redis read model, end to end: events are produced to the real
 * Kafka, a real BFF consumes them, and the real Redis is inspected.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { deadLetterTopic, eventTypes, topics } from '@raly/contracts/events';
import { Redis } from 'ioredis';
import type { RunningBff } from '../src/app';
import { createReadModel, readModelKey } from '../src/data-access/read-model';
import {
  aBrandRecord,
  anEnvelope,
  aUserRecord,
  connectTestKafka,
  eventually,
  type TestKafka,
  testStack,
  uniqueToken,
} from '@raly/test-support';
import { startTestBff } from '@raly/test-support/bff';

describe('read model projection', () => {
  let bff: RunningBff;
  let kafka: TestKafka;
  let redis: Redis;

  beforeAll(async () => {
    const stack = await testStack();
    bff = await startTestBff(stack);
    kafka = await connectTestKafka(stack.kafkaBrokers);
    redis = new Redis(stack.redisUrl);
  });

  afterAll(async () => {
    await bff?.stop();
    await kafka?.close();
    redis?.disconnect();
  });

  const storedVersion = async (key: string) => {
    const version = await redis.hget(key, 'version');
    return version === null ? undefined : Number(version);
  };
  const storedSnapshot = async (key: string) => JSON.parse((await redis.hget(key, 'snapshot'))!);

  test('when a newer user snapshot is published, then the read model holds it', async () => {
    // Arrange
    const record = aUserRecord({ version: 4, firstName: 'Newer' });
    const key = readModelKey('user', record.id);

    // Act
    await kafka.produce(topics.identityUser, record.id, JSON.stringify(anEnvelope(record)));

    // Assert
    assert.equal(await eventually('version 4 in Redis', () => storedVersion(key)), 4);
    assert.deepEqual(await storedSnapshot(key), record);
  });

  test('when an older or equal version arrives after a newer one, then it is ignored and its offset committed', async () => {
    // Arrange
    const current = aUserRecord({ version: 5, firstName: 'Current' });
    const key = readModelKey('user', current.id);
    await kafka.produce(topics.identityUser, current.id, JSON.stringify(anEnvelope(current)));
    await eventually('version 5 in Redis', () => storedVersion(key));

    // Act
    await kafka.produce(
      topics.identityUser,
      current.id,
      JSON.stringify(anEnvelope({ ...current, version: 3, firstName: 'Stale' })),
    );
    const duplicate = await kafka.produce(
      topics.identityUser,
      current.id,
      JSON.stringify(anEnvelope({ ...current, firstName: 'Redelivered' })),
    );
    await kafka.waitUntilCommitted(bff.config.KAFKA_GROUP_ID, topics.identityUser, duplicate);

    // Assert
    assert.equal(await storedVersion(key), 5);
    assert.equal((await storedSnapshot(key)).firstName, 'Current');
  });

  test('when a brand snapshot is published, then the read model holds it under the brand key', async () => {
    // Arrange
    const brand = aBrandRecord({ version: 2 });

    // Act
    await kafka.produce(
      topics.brandBrand,
      brand.id,
      JSON.stringify(anEnvelope(brand, eventTypes.brandUpdated)),
    );

    // Assert
    const key = readModelKey('brand', brand.id);
    assert.equal(await eventually('brand version 2 in Redis', () => storedVersion(key)), 2);
    assert.deepEqual(await storedSnapshot(key), brand);
  });

  test('when a message is not a valid envelope, then it lands in the dead-letter topic and its offset is committed', async () => {
    // Arrange
    const messageKey = `poison-${uniqueToken()}`;

    // Act
    const position = await kafka.produce(
      topics.identityUser,
      messageKey,
      '{"this is": "not an envelope"',
    );

    // Assert
    await kafka.waitUntilCommitted(bff.config.KAFKA_GROUP_ID, topics.identityUser, position);
    const deadLetter = await kafka.findMessage(deadLetterTopic(topics.identityUser), messageKey);
    assert.equal(deadLetter.value, '{"this is": "not an envelope"');
    assert.equal(deadLetter.headers['dlq-original-topic'], topics.identityUser);
    assert.match(deadLetter.headers['dlq-reason'] ?? '', /unparseable/);
  });

  test("when an envelope's subject is not its record's id, then it is dead-lettered and the read model is untouched", async () => {
    // Arrange
    const record = aUserRecord({ version: 1 });
    const envelope = { ...anEnvelope(record), subject: `someone-else-${uniqueToken()}` };

    // Act
    const position = await kafka.produce(
      topics.identityUser,
      envelope.subject,
      JSON.stringify(envelope),
    );

    // Assert
    await kafka.waitUntilCommitted(bff.config.KAFKA_GROUP_ID, topics.identityUser, position);
    const deadLetter = await kafka.findMessage(
      deadLetterTopic(topics.identityUser),
      envelope.subject,
    );
    // Dead-lettered at once: a contradiction is not retried.
    assert.match(
      deadLetter.headers['dlq-reason'] ?? '',
      /poison event: envelope subject and record id differ/,
    );
    assert.equal(await redis.exists(readModelKey('user', record.id)), 0);
  });
});

describe("a user's stored snapshot for GET /api/me", () => {
  let redis: Redis;
  const prefix = `rm-test-${uniqueToken(12)}`;

  beforeAll(async () => {
    redis = new Redis((await testStack()).redisUrl);
  });

  afterAll(() => {
    redis?.disconnect();
  });

  test("when a creator's and a brand user's snapshots are stored, then each is read back as its JSON text with its brand id", async () => {
    // Arrange
    const readModel = createReadModel(redis, prefix);
    const creator = aUserRecord({ version: 1 });
    const brandUser = aUserRecord({
      version: 1,
      brand: { id: `brand-${uniqueToken()}`, isAdmin: true },
    });

    // Act
    await readModel.apply('user', creator);
    await readModel.apply('user', brandUser);

    // Assert
    assert.deepEqual(await readModel.getUserJson(creator.id), {
      json: JSON.stringify(creator),
      brandId: null,
    });
    assert.deepEqual(await readModel.getUserJson(brandUser.id), {
      json: JSON.stringify(brandUser),
      brandId: brandUser.brand!.id,
    });
    assert.equal(await readModel.getUserJson(`nobody-${uniqueToken()}`), null);
  });

  test('when a snapshot was stored without its brand id field, then the brand id is read from the snapshot', async () => {
    // Arrange
    const readModel = createReadModel(redis, prefix);
    const brandUser = aUserRecord({
      version: 3,
      brand: { id: `brand-${uniqueToken()}`, isAdmin: false },
    });
    const json = JSON.stringify(brandUser);
    await redis.hset(readModelKey('user', brandUser.id, prefix), 'version', '3', 'snapshot', json);

    // Act
    const stored = await readModel.getUserJson(brandUser.id);

    // Assert
    assert.deepEqual(stored, { json, brandId: brandUser.brand!.id });
  });
});
