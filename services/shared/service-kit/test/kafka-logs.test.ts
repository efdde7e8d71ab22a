/**
 * kafkajs' own log lines on the app's logger (src/kafka.ts kafkaLogCreator):
 * a group state kafkajs retries by itself (a coordinator still loading, a
 * rebalance) is logged at info, so a normal start logs no error; anything
 * else keeps kafkajs' level. The rebalance is made for real against the
 * local Kafka; the coordinator's loading only happens on a broker that just
 * started, so its line is given as kafkajs' Connection writes it.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { resolveTestStack, uniqueToken } from '@raly/test-stack';
import { logLevel, type Consumer } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, describe, test } from 'vitest';
import { createKafka, kafkaLogCreator } from '../src/kafka';

interface LoggedLine {
  level: number;
  msg: string;
  kafka?: string;
  error?: string;
}

/** A pino logger at debug whose lines are kept, parsed, in `lines`. */
function capturingLogger() {
  const lines: LoggedLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(text) as LoggedLine);
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

const pinoLevels = { info: 30, warn: 40, error: 50 };
const rebalancing = 'The group is rebalancing, so a rejoin is needed';

describe('kafkaLogCreator', () => {
  test('when kafkajs logs that the group coordinator is loading, then the line is at info, below warn', () => {
    const { logger, lines } = capturingLogger();
    const log = kafkaLogCreator(logger)(logLevel.WARN);

    log({
      namespace: 'Connection',
      level: logLevel.ERROR,
      label: 'ERROR',
      log: {
        timestamp: new Date().toISOString(),
        message: 'Response FindCoordinator(key: bff-live, version: 2)',
        broker: '127.0.0.1:9092',
        clientId: 'bff-consumer',
        error: "The coordinator is loading and hence can't process requests for this group",
        correlationId: 2,
        size: 67,
      },
    });

    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.level, pinoLevels.info);
    assert.equal(lines[0]?.kafka, 'Connection');
    assert.equal(lines[0]?.msg, 'Response FindCoordinator(key: bff-live, version: 2)');
  });

  test('when kafkajs logs any other error or warning, then the line keeps its level', () => {
    const { logger, lines } = capturingLogger();
    const log = kafkaLogCreator(logger)(logLevel.WARN);
    const entry = (level: logLevel, message: string, error?: string) => ({
      namespace: 'Consumer',
      level,
      label: logLevel[level],
      log: { timestamp: new Date().toISOString(), message, ...(error ? { error } : {}) },
    });

    log(
      entry(
        logLevel.ERROR,
        'Crash: KafkaJSNumberOfRetriesExceeded: The group coordinator is not available',
      ),
    );
    log(
      entry(logLevel.ERROR, 'Response Metadata(key: 3, version: 6)', 'SASL authentication failed'),
    );
    log(entry(logLevel.WARN, 'Consumer group received unsubscribed topics'));

    assert.deepEqual(
      lines.map((line) => line.level),
      [pinoLevels.error, pinoLevels.error, pinoLevels.warn],
    );
  });
});

describe('createKafka', () => {
  const consumers: Consumer[] = [];
  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.disconnect()));
  });

  test('when a second consumer joins a group, then the rebalance kafkajs reports is logged at info and nothing about it at warn or above', async () => {
    const { kafkaBrokers } = await resolveTestStack();
    const { logger, lines } = capturingLogger();
    const kafka = createKafka(kafkaBrokers, 'kit-test-logs', logger, {});
    const topic = `raly-kit-test.logs.${uniqueToken()}`;
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
    const groupId = `raly-kit-test-logs-${uniqueToken()}`;

    /** Starts a consumer of the group; resolves once it joined (again, after a rebalance). */
    const joinGroup = async (): Promise<{ joins: () => number }> => {
      const consumer = kafka.consumer({ groupId, heartbeatInterval: 200, maxWaitTimeInMs: 100 });
      consumers.push(consumer);
      let joins = 0;
      consumer.on(consumer.events.GROUP_JOIN, () => (joins += 1));
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({ eachMessage: async () => {} });
      return { joins: () => joins };
    };
    const waitUntil = async (condition: () => boolean, what: string) => {
      const deadline = Date.now() + 30_000;
      while (!condition()) {
        if (Date.now() > deadline) assert.fail(`${what} within 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };

    try {
      const first = await joinGroup();
      await waitUntil(() => first.joins() === 1, 'the first consumer joined');
      const second = await joinGroup();
      await waitUntil(
        () => first.joins() === 2 && second.joins() === 1,
        'both consumers joined after the rebalance',
      );
    } finally {
      await Promise.all(consumers.splice(0).map((consumer) => consumer.disconnect()));
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    }

    const aboutRebalance = lines.filter((line) => line.error === rebalancing);
    assert.ok(aboutRebalance.length > 0, 'kafkajs reported the rebalance');
    assert.deepEqual(
      aboutRebalance.map((line) => line.level),
      aboutRebalance.map(() => pinoLevels.info),
    );
  });
});
