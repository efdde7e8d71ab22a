/**
 * The Kafka client's TLS and SASL from environment variables (Strimzi's SCRAM-SHA-512
 * TLS listener and managed Kafka without a code change), and the Postgres pool size from
 * DATABASE_POOL_MAX. The mapping is checked on its own; the client and the pool against the
 * local stack's Kafka (PLAINTEXT, no SASL) and Postgres.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveTestStack } from '@raly/test-stack';
import { afterAll, describe, test } from 'vitest';
import { databasePoolMaxFromEnv, openDatabase } from '../src/database';
import { createKafka, kafkaConnectionFromEnv } from '../src/kafka';
import { createLogger } from '../src/logger';

const directory = mkdtempSync(path.join(tmpdir(), 'raly-kit-kafka-'));
const caFile = path.join(directory, 'ca.crt');
const caPem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
writeFileSync(caFile, caPem);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** @returns the error message of `run`, which must throw */
const messageOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('expected an error');
};

describe('kafkaConnectionFromEnv', () => {
  test('when no Kafka security variable is set, then the client speaks PLAINTEXT without authentication', () => {
    assert.deepEqual(kafkaConnectionFromEnv({}), {});
    assert.deepEqual(kafkaConnectionFromEnv({ KAFKA_SSL: 'false' }), {});
  });

  test("when KAFKA_SSL=true with a CA file, then TLS trusts that CA's PEM and verifies the brokers", () => {
    assert.deepEqual(kafkaConnectionFromEnv({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: caFile }), {
      ssl: { ca: [caPem], rejectUnauthorized: true },
    });
  });

  test("when KAFKA_SSL=true without a CA file, then TLS uses the system's CAs; KAFKA_SSL_REJECT_UNAUTHORIZED=false turns verification off", () => {
    assert.deepEqual(kafkaConnectionFromEnv({ KAFKA_SSL: 'true' }), { ssl: true });
    assert.deepEqual(
      kafkaConnectionFromEnv({ KAFKA_SSL: 'true', KAFKA_SSL_REJECT_UNAUTHORIZED: 'false' }),
      { ssl: { rejectUnauthorized: false } },
    );
  });

  test("when SCRAM-SHA-512 and TLS are set (Strimzi's listener), then both reach the client", () => {
    const connection = kafkaConnectionFromEnv({
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: caFile,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'brand',
      KAFKA_SASL_PASSWORD: 's3cret',
    });
    assert.deepEqual(connection, {
      ssl: { ca: [caPem], rejectUnauthorized: true },
      sasl: { mechanism: 'scram-sha-512', username: 'brand', password: 's3cret' },
    });
  });

  test('when a mechanism comes without its user name or password, then it refuses, naming the missing variable', () => {
    const message = messageOf(() =>
      kafkaConnectionFromEnv({ KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'bff' }),
    );
    assert.match(message, /KAFKA_SASL_PASSWORD: required with KAFKA_SASL_MECHANISM=scram-sha-512/);
    assert.doesNotMatch(message, /KAFKA_SASL_USERNAME/);
  });

  test('when credentials come without a mechanism, or the mechanism is unknown, then it refuses, naming KAFKA_SASL_MECHANISM', () => {
    assert.match(
      messageOf(() =>
        kafkaConnectionFromEnv({ KAFKA_SASL_USERNAME: 'bff', KAFKA_SASL_PASSWORD: 'x' }),
      ),
      /KAFKA_SASL_MECHANISM: required/,
    );
    assert.match(
      messageOf(() =>
        kafkaConnectionFromEnv({
          KAFKA_SASL_MECHANISM: 'gssapi',
          KAFKA_SASL_USERNAME: 'bff',
          KAFKA_SASL_PASSWORD: 'x',
        }),
      ),
      /KAFKA_SASL_MECHANISM/,
    );
  });

  test('when the CA file is missing, or set without KAFKA_SSL=true, then it refuses, naming KAFKA_SSL_CA_FILE', () => {
    assert.match(
      messageOf(() =>
        kafkaConnectionFromEnv({
          KAFKA_SSL: 'true',
          KAFKA_SSL_CA_FILE: path.join(directory, 'missing.crt'),
        }),
      ),
      /KAFKA_SSL_CA_FILE: cannot read .*missing\.crt/,
    );
    assert.match(
      messageOf(() => kafkaConnectionFromEnv({ KAFKA_SSL_CA_FILE: caFile })),
      /KAFKA_SSL_CA_FILE: set, but KAFKA_SSL is not true/,
    );
    assert.match(
      messageOf(() => kafkaConnectionFromEnv({ KAFKA_SSL: 'yes' })),
      /KAFKA_SSL/,
    );
  });
});

describe('createKafka', () => {
  test('when SASL is configured against a broker without it, then connecting fails, so the client did use the configuration; without it, it connects', async () => {
    const stack = await resolveTestStack();
    const logger = createLogger('kit-test', 'silent');
    const plain = createKafka(stack.kafkaBrokers, 'kit-test-plain', logger, {}).admin();
    await plain.connect();
    await plain.disconnect();

    const sasl = createKafka(stack.kafkaBrokers, 'kit-test-sasl', logger, {
      sasl: { mechanism: 'scram-sha-512', username: 'nobody', password: 'nothing' },
    }).admin();
    const failure = await sasl.connect().then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    await sasl.disconnect();
    assert.ok(failure, 'a SASL handshake with a PLAINTEXT broker fails');
    assert.match(failure.message, /SASL|sasl|authentication/i);
  });
});

describe('DATABASE_POOL_MAX', () => {
  test('when it is unset, then the pool keeps the previous size of 10; set, its value; malformed, a refusal naming it', () => {
    assert.equal(databasePoolMaxFromEnv({}), 10);
    assert.equal(databasePoolMaxFromEnv({ DATABASE_POOL_MAX: '5' }), 5);
    assert.match(
      messageOf(() => databasePoolMaxFromEnv({ DATABASE_POOL_MAX: '0' })),
      /DATABASE_POOL_MAX/,
    );
    assert.match(
      messageOf(() => databasePoolMaxFromEnv({ DATABASE_POOL_MAX: 'ten' })),
      /DATABASE_POOL_MAX/,
    );
  });

  test('when a database is opened with a pool size, then the pg pool opens at most that many connections to Postgres', async () => {
    const stack = await resolveTestStack();
    // No Prisma here: a stand-in client the kit can extend and disconnect.
    const client = { $disconnect: async () => {}, $extends: () => client };
    const database = openDatabase(stack.databaseUrl('postgres'), () => client, { poolMax: 2 });
    try {
      await database.ping();
      // Three sessions that each wait for Postgres: the third waits for a free connection.
      const held = await Promise.all([database.pool.connect(), database.pool.connect()]);
      const third = database.pool.connect();
      const race = await Promise.race([
        third.then(() => 'connected'),
        new Promise((resolve) => setTimeout(() => resolve('waiting'), 300)),
      ]);
      assert.equal(race, 'waiting');
      assert.equal(database.pool.totalCount, 2);
      held[0]!.release();
      (await third).release();
      held[1]!.release();
    } finally {
      await database.close();
    }
  });
});
