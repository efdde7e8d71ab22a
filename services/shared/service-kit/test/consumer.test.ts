/**
 * The Kafka consumer runner (src/consumer.ts) against the real Kafka, on a
 * topic of its own: batches handled with each aggregate's events in offset
 * order (also when several aggregates are handled at once), one offset commit
 * per batch, the `isApplied` pre-check, data checked by the subscription's
 * schema, poison messages dead-lettered without holding up the rest,
 * snapshots coalesced to the newest of each aggregate in a batch, and each
 * message handled in a span continuing the trace of its `traceparent` header.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { deadLetterTopic, eventTypes, type Envelope } from '@raly/contracts/events';
import { userRecordSchema, type UserRecord } from '@raly/contracts/records';
import { Kafka, KafkaJSError, logLevel, type Admin, type Producer } from 'kafkajs';
import {
  on,
  PoisonEventError,
  runConsumer,
  type ConsumerRunnerOptions,
  type RunningConsumer,
} from '../src/consumer';
import { createLogger } from '../src/logger';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { startTracing, traceLogFields } from '../src/tracing';
import {
  anEnvelope,
  aUserRecord,
  eventually,
  listenToTopic,
  resolveTestStack,
  sleep,
  uniqueToken,
} from '@raly/test-stack';

describe('runConsumer', () => {
  const topics: string[] = [];
  const consumers: RunningConsumer[] = [];
  let kafka: Kafka;
  let admin: Admin;
  let producer: Producer;
  let brokers: string[];

  beforeAll(async () => {
    brokers = (await resolveTestStack()).kafkaBrokers;
    kafka = new Kafka({ clientId: 'raly-kit-test', brokers, logLevel: logLevel.NOTHING });
    admin = kafka.admin();
    producer = kafka.producer();
    await Promise.all([admin.connect(), producer.connect()]);
  });

  afterAll(async () => {
    for (const consumer of consumers) await consumer.stop();
    await admin?.deleteTopics({ topics }).catch(() => undefined);
    await Promise.all([admin?.disconnect(), producer?.disconnect()]);
  });

  /** A new one-partition topic and its dead-letter topic. */
  async function newTopic(): Promise<string> {
    const topic = `raly-kit-test.consumer.${uniqueToken()}`;
    topics.push(topic, deadLetterTopic(topic));
    await admin.createTopics({
      topics: [topic, deadLetterTopic(topic)].map((name) => ({ topic: name, numPartitions: 1 })),
      waitForLeaders: true,
    });
    return topic;
  }

  /** `versions` of each of `aggregates` new users, interleaved (v1 of each, then v2 of each, …). */
  function interleavedEvents(aggregates: number, versions: number): Envelope<UserRecord>[] {
    const ids = Array.from({ length: aggregates }, () => aUserRecord().id);
    return Array.from({ length: versions }, (_, index) =>
      ids.map((id) => anEnvelope(aUserRecord({ id, version: index + 1 }))),
    ).flat();
  }

  async function publish(
    topic: string,
    values: Array<{ key: string; value: string; headers?: Record<string, string> }>,
  ) {
    await producer.send({ topic, messages: values });
  }

  async function run(
    topic: string,
    handle: (event: Envelope<UserRecord>) => Promise<void>,
    options: Partial<ConsumerRunnerOptions> = {},
  ): Promise<string> {
    const groupId = `raly-kit-test-${uniqueToken(12)}`;
    consumers.push(
      await runConsumer({
        kafka,
        groupId,
        logger: createLogger('kit-test', 'silent'),
        subscriptions: [on(topic, eventTypes.userUpdated, userRecordSchema, handle)],
        maxAttempts: 2,
        ...options,
      }),
    );
    return groupId;
  }

  const committed = async (groupId: string, topic: string): Promise<number> => {
    const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return Number(offsets?.partitions[0]?.offset ?? -1);
  };

  test('when several aggregates are handled at once, then each aggregate sees its versions in offset order and the group commits past the last message', async () => {
    // Arrange
    const topic = await newTopic();
    const events = interleavedEvents(6, 5);
    await publish(
      topic,
      events.map((event) => ({ key: event.subject, value: JSON.stringify(event) })),
    );
    const seen = new Map<string, number[]>();
    let inFlight = 0;
    let mostInFlight = 0;

    // Act
    const groupId = await run(
      topic,
      async (event) => {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await sleep(Math.floor(Math.random() * 5));
        seen.set(event.subject, [...(seen.get(event.subject) ?? []), event.version]);
        inFlight -= 1;
      },
      { concurrency: 4 },
    );

    // Assert
    await eventually('every message committed', async () =>
      (await committed(groupId, topic)) === events.length ? true : undefined,
    );
    assert.equal(seen.size, 6);
    for (const versions of seen.values()) assert.deepEqual(versions, [1, 2, 3, 4, 5]);
    assert.ok(mostInFlight > 1, `at most ${mostInFlight} handled at once`);
    assert.ok(mostInFlight <= 4, `${mostInFlight} handled at once, above the concurrency`);
  });

  test('when isApplied says a version is already applied, then its handler is not called and its offset is committed', async () => {
    // Arrange
    const topic = await newTopic();
    const events = interleavedEvents(2, 4);
    await publish(
      topic,
      events.map((event) => ({ key: event.subject, value: JSON.stringify(event) })),
    );
    const handled: number[] = [];

    // Act
    const groupId = await run(topic, async (event) => void handled.push(event.version), {
      isApplied: (_topic, _subject, version) => version <= 2,
    });

    // Assert
    await eventually('every message committed', async () =>
      (await committed(groupId, topic)) === events.length ? true : undefined,
    );
    assert.deepEqual(
      handled.sort((a, b) => a - b),
      [3, 3, 4, 4],
    );
  });

  test('when a message is unparseable or its handler keeps failing, then both go to the dead-letter topic and the events around them are still handled', async () => {
    // Arrange
    const topic = await newTopic();
    const deadLetters = await listenToTopic(brokers, deadLetterTopic(topic));
    const [first, failing, last] = interleavedEvents(3, 1) as [
      Envelope<UserRecord>,
      Envelope<UserRecord>,
      Envelope<UserRecord>,
    ];
    const poisonKey = `poison-${uniqueToken()}`;
    await publish(topic, [
      { key: first.subject, value: JSON.stringify(first) },
      { key: poisonKey, value: '{"not": "an envelope"' },
      { key: failing.subject, value: JSON.stringify(failing) },
      { key: last.subject, value: JSON.stringify(last) },
    ]);
    const handled: string[] = [];

    // Act
    const groupId = await run(topic, async (event) => {
      if (event.subject === failing.subject) throw new Error('handler refuses');
      handled.push(event.subject);
    });

    // Assert
    await eventually('every message committed', async () =>
      (await committed(groupId, topic)) === 4 ? true : undefined,
    );
    assert.deepEqual(handled, [first.subject, last.subject]);
    const unparseable = await deadLetters.waitFor((m) => m.key?.toString() === poisonKey);
    assert.match(String(unparseable.headers?.['dlq-reason']), /unparseable/);
    const refused = await deadLetters.waitFor((m) => m.key?.toString() === failing.subject);
    assert.match(String(refused.headers?.['dlq-reason']), /handler failed 2 times/);
    assert.equal(String(refused.headers?.['dlq-original-offset']), '2');
    await deadLetters.stop();
  });

  test("when an event's data does not fit its subscription's schema, then it is dead-lettered; an event type nobody subscribed to is skipped", async () => {
    // Arrange
    const topic = await newTopic();
    const deadLetters = await listenToTopic(brokers, deadLetterTopic(topic));
    const [misfit, unsubscribed, fitting] = interleavedEvents(3, 1) as [
      Envelope<UserRecord>,
      Envelope<UserRecord>,
      Envelope<UserRecord>,
    ];
    await publish(topic, [
      { key: misfit.subject, value: JSON.stringify({ ...misfit, data: { id: misfit.subject } }) },
      {
        key: unsubscribed.subject,
        value: JSON.stringify({ ...unsubscribed, type: 'identity.user.renamed', data: null }),
      },
      { key: fitting.subject, value: JSON.stringify(fitting) },
    ]);
    const handled: string[] = [];

    // Act
    const groupId = await run(topic, async (event) => void handled.push(event.subject));

    // Assert
    await eventually('every message committed', async () =>
      (await committed(groupId, topic)) === 3 ? true : undefined,
    );
    assert.deepEqual(handled, [fitting.subject]);
    const deadLetter = await deadLetters.waitFor((m) => m.key?.toString() === misfit.subject);
    assert.match(String(deadLetter.headers?.['dlq-reason']), /^unparseable: /);
    await sleep(500); // the unsubscribed event, had it been dead-lettered, would be there by now
    assert.equal(deadLetters.messages.length, 1);
    await deadLetters.stop();
  });

  test("when a message's event-type header names a type nobody subscribed to, then it is skipped unread and committed", async () => {
    // Arrange
    const topic = await newTopic();
    const deadLetters = await listenToTopic(brokers, deadLetterTopic(topic));
    const [other, fitting] = interleavedEvents(2, 1) as [
      Envelope<UserRecord>,
      Envelope<UserRecord>,
    ];
    await publish(topic, [
      // Not even JSON: read, it would be dead-lettered as unparseable.
      { key: other.subject, value: 'not json', headers: { 'event-type': 'identity.user.renamed' } },
      {
        key: fitting.subject,
        value: JSON.stringify(fitting),
        headers: { 'event-type': eventTypes.userUpdated },
      },
    ]);
    const handled: string[] = [];

    // Act
    const groupId = await run(topic, async (event) => void handled.push(event.subject));

    // Assert
    await eventually('every message committed', async () =>
      (await committed(groupId, topic)) === 2 ? true : undefined,
    );
    assert.deepEqual(handled, [fitting.subject]);
    await sleep(500); // a dead-lettered message would be there by now
    assert.equal(deadLetters.messages.length, 0);
    await deadLetters.stop();
  });

  test('when a handler throws PoisonEventError, then the event is dead-lettered after one attempt', async () => {
    // Arrange
    const topic = await newTopic();
    const deadLetters = await listenToTopic(brokers, deadLetterTopic(topic));
    const [event] = interleavedEvents(1, 1) as [Envelope<UserRecord>];
    await publish(topic, [{ key: event.subject, value: JSON.stringify(event) }]);
    let attempts = 0;

    // Act
    const groupId = await run(
      topic,
      async () => {
        attempts += 1;
        throw new PoisonEventError('contradicts itself');
      },
      { maxAttempts: 3 },
    );

    // Assert
    await eventually('the message committed', async () =>
      (await committed(groupId, topic)) === 1 ? true : undefined,
    );
    const deadLetter = await deadLetters.waitFor((m) => m.key?.toString() === event.subject);
    assert.equal(String(deadLetter.headers?.['dlq-reason']), 'poison event: contradicts itself');
    assert.equal(attempts, 1);
    await deadLetters.stop();
  });
  test('when the events are snapshots, then only the newest of each aggregate in a batch is handled, and when it is poison the one before it', async () => {
    // Arrange: published before the consumer starts, so that they arrive in one batch.
    const topic = await newTopic();
    const deadLetters = await listenToTopic(brokers, deadLetterTopic(topic));
    const events = interleavedEvents(3, 5);
    const poisonSubject = events[0]!.subject;
    await publish(
      topic,
      events.map((event) => ({ key: event.subject, value: JSON.stringify(event) })),
    );
    const handled: string[] = [];

    // Act
    const groupId = await run(
      topic,
      async (event) => {
        if (event.subject === poisonSubject && event.version === 5)
          throw new PoisonEventError('contradicts itself');
        handled.push(`${event.subject} ${event.version}`);
      },
      { snapshots: true, concurrency: 4 },
    );

    // Assert
    await eventually('every message committed', async () =>
      (await committed(groupId, topic)) === events.length ? true : undefined,
    );
    const [poisoned, second, third] = events.slice(0, 3).map((event) => event.subject);
    assert.deepEqual(handled.sort(), [`${poisoned} 4`, `${second} 5`, `${third} 5`].sort());
    const deadLetter = await deadLetters.waitFor((m) => m.key?.toString() === poisonSubject);
    assert.equal(String(deadLetter.headers?.['dlq-reason']), 'poison event: contradicts itself');
    await deadLetters.stop();
  });

  test('when batches are handled within the commit interval, then their offsets are committed together once it has passed, and a stop commits what was handled at once', async () => {
    // Arrange
    const topic = await newTopic();
    const events = interleavedEvents(4, 1);
    const handled: string[] = [];
    const groupId = await run(topic, async (event) => void handled.push(event.subject), {
      commitIntervalMs: 3000,
    });

    // Act: one message at a time, each its own batch.
    for (const event of events.slice(0, 2)) {
      await publish(topic, [{ key: event.subject, value: JSON.stringify(event) }]);
      await eventually('the message handled', () => handled.includes(event.subject));
    }

    // Assert: handled, not yet committed; committed within the interval after the first batch.
    assert.equal(await committed(groupId, topic), -1);
    await eventually(
      'both offsets committed in one commit',
      async () => ((await committed(groupId, topic)) === 2 ? true : undefined),
      { timeoutMs: 8000 },
    );

    // Act: two more handled, then the consumer stops well within the next interval.
    for (const event of events.slice(2)) {
      await publish(topic, [{ key: event.subject, value: JSON.stringify(event) }]);
      await eventually('the message handled', () => handled.includes(event.subject));
    }
    assert.equal(await committed(groupId, topic), 2);
    await consumers.pop()!.stop();

    // Assert
    assert.equal(await committed(groupId, topic), 4);
  });

  test('when an offset commit fails and no further batch comes, then it is tried again after a growing back-off until it is committed', async () => {
    // Arrange: the real consumer, whose first two commits fail as when the group coordinator is
    // away (fault injected at the client's commit call; fetching and handling stay real).
    const topic = await newTopic();
    const event = anEnvelope(aUserRecord());
    const commitCalls: number[] = [];
    const failingFirstCommits = new Proxy(kafka, {
      get(target, property) {
        if (property !== 'consumer') return Reflect.get(target, property, target) as unknown;
        return (config: Parameters<Kafka['consumer']>[0]) => {
          const consumer = target.consumer(config);
          const commitOffsets = consumer.commitOffsets.bind(consumer);
          consumer.commitOffsets = async (offsets) => {
            commitCalls.push(Date.now());
            if (commitCalls.length <= 2)
              throw new KafkaJSError('The coordinator is not available', { retriable: true });
            return commitOffsets(offsets);
          };
          return consumer;
        };
      },
    });
    const handled: string[] = [];
    const groupId = await run(topic, async (item) => void handled.push(item.subject), {
      kafka: failingFirstCommits,
      commitIntervalMs: 50,
    });

    // Act: one message, then nothing more.
    await publish(topic, [{ key: event.subject, value: JSON.stringify(event) }]);
    await eventually('the message handled', () => handled.includes(event.subject));

    // Assert: committed by the third attempt, each retry waiting longer than the one before.
    await eventually(
      'the offset committed by a retry',
      async () => ((await committed(groupId, topic)) === 1 ? true : undefined),
      { timeoutMs: 8000 },
    );
    assert.equal(commitCalls.length, 3);
    const [first, second, third] = commitCalls as [number, number, number];
    assert.ok(second - first >= 240, `first retry after ${second - first} ms`);
    assert.ok(third - second >= 480, `second retry after ${third - second} ms`);
  });

  test('when a message carries a traceparent, then its handler runs in a consumer span that continues that trace, and log lines get its ids', async () => {
    // Arrange
    const topic = await newTopic();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const senderSpanId = '00f067aa0ba902b7';
    const event = anEnvelope(aUserRecord());
    await producer.send({
      topic,
      messages: [
        {
          key: event.subject,
          value: JSON.stringify(event),
          headers: { traceparent: `00-${traceId}-${senderSpanId}-01` },
        },
      ],
    });
    const exporter = new InMemorySpanExporter();
    const tracing = startTracing('kit-consumer-test', {}, exporter);
    let inHandler: ReturnType<typeof traceLogFields> | undefined;

    // Act
    await run(
      topic,
      async () => {
        inHandler = traceLogFields();
      },
      { tracing, fromBeginning: true },
    );

    // Assert
    await eventually('the handler ran', () => inHandler);
    await eventually('the consumer span', async () => {
      await tracing.flush();
      return exporter.getFinishedSpans().length > 0;
    });
    const [span] = exporter.getFinishedSpans();
    assert.equal(span!.name, `process ${topic}`);
    assert.equal(span!.spanContext().traceId, traceId);
    assert.equal(span!.parentSpanContext?.spanId, senderSpanId);
    assert.equal(span!.attributes['messaging.message.id'], event.id);
    assert.deepEqual(inHandler, { trace_id: traceId, span_id: span!.spanContext().spanId });
    assert.equal(trace.getActiveSpan(), undefined, 'nothing stays active outside the handler');
    await tracing.shutdown();
  });
});
