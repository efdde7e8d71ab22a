import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, test, beforeAll } from 'vitest';
import pg from 'pg';
import { kafkaClient } from '../src/stack/kafka';
import { allKafkaTopics, serviceDatabases } from '../src/stack/settings';
import { resolveTestStack, type TestStack } from '../src/test-env';

function redisPing(redisUrl: string): Promise<string> {
  const url = new URL(redisUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () =>
      socket.write('PING\r\n'),
    );
    socket.once('data', (reply) => {
      socket.destroy();
      resolve(reply.toString().trim());
    });
    socket.once('error', reject);
  });
}

describe('the test stack', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await resolveTestStack();
  });

  test('when resolved twice in one process, then the same stack is answered', async () => {
    assert.equal(await resolveTestStack(), stack);
  });

  for (const database of serviceDatabases) {
    test(`when connecting to ${database}, then Postgres answers a query`, async () => {
      const client = new pg.Client({ connectionString: stack.databaseUrl(database) });
      await client.connect();
      try {
        const result = await client.query<{ name: string }>('select current_database() as name');
        assert.equal(result.rows[0]?.name, database);
      } finally {
        await client.end();
      }
    });
  }

  test('when pinging Redis, then it answers PONG', async () => {
    assert.equal(await redisPing(stack.redisUrl), '+PONG');
  });

  test('when listing Kafka topics, then every event topic and its dead-letter topic exist with 3 partitions', async () => {
    const admin = kafkaClient('infra-test', stack.kafkaBrokers).admin();
    await admin.connect();
    try {
      const metadata = await admin.fetchTopicMetadata({ topics: allKafkaTopics() });
      for (const topic of metadata.topics) assert.equal(topic.partitions.length, 3, topic.name);
      assert.deepEqual(metadata.topics.map((topic) => topic.name).sort(), allKafkaTopics().sort());
    } finally {
      await admin.disconnect();
    }
  });

  test('when asking Keycloak for the raly realm, then its issuer is the public Keycloak address', async () => {
    const response = await fetch(
      `${stack.keycloakUrl}/realms/${stack.realm}/.well-known/openid-configuration`,
    );
    assert.equal(response.status, 200);
    const configuration = (await response.json()) as { issuer: string };
    assert.equal(configuration.issuer, `${stack.keycloakPublicUrl}/realms/${stack.realm}`);
  });

  test('when asking the S3 store for the media bucket, then it exists', async () => {
    const response = await fetch(`${stack.s3.endpoint}/${stack.s3.bucket}`, { method: 'HEAD' });
    assert.equal(response.status, 200);
  });

  test('when asking the SMTP catcher for its health, then it answers', async () => {
    const response = await fetch(`${stack.smtpCatcherUrl}/healthz`);
    assert.equal(response.status, 200);
  });
});
