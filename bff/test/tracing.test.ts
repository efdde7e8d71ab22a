/**
 * One trace across the processes a username change touches: the
 * BFF, identity-profile and its outbox relay, the BFF's projector and its
 * socket emit all export over OTLP/HTTP (protobuf) to a receiver run by this test,
 * and the spans of one change share the trace id the caller's `traceparent`
 * named, each the child of the hop before it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Me } from '@raly/contracts/bff-api';
import { topics } from '@raly/contracts/events';
import type { RunningBff } from '../src/app';
import type { RecordStore } from '../src/domain/record-store';
import { subscriptions } from '../src/messaging/subscriptions';
import { isolatedLive } from './support/offers';
import { callJson, connectTestKafka, testStack, uniqueToken } from '@raly/test-support';
import { startTestBff, type BffBody } from '@raly/test-support/bff';
import { registeredCreator, startSystem, type RalySystem } from '@raly/test-support/system';
import { startOtlpReceiver, type OtlpReceiver, type OtlpSpan } from '@raly/test-support/otlp';

let receiver: OtlpReceiver;
let system: RalySystem;
let bff: RunningBff;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  // Every app exports to the receiver, a batch every 100 ms.
  const tracing = {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
  system = await startSystem({ env: { common: tracing } });
  const stack = await testStack();
  const groupId = `bff-test-${uniqueToken(12)}`;
  bff = await startTestBff(stack, {
    KAFKA_GROUP_ID: groupId,
    IDENTITY_URL: system.identityUrl,
    BRAND_URL: system.brandUrl,
    ...isolatedLive(),
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: 100,
  });
  // The BFF's new group replays every topic from the beginning, and each replayed message of a
  // trace makes a consume (and emit) span: thousands on a stack that has run for a while. While
  // they fill its export queue (OTEL_BSP_MAX_QUEUE_SIZE) every further span is dropped, this
  // test's too. Act only once the replay is done.
  const kafka = await connectTestKafka(stack.kafkaBrokers);
  try {
    await kafka.waitUntilCaughtUp(groupId, [...projectedTopics]);
  } finally {
    await kafka.close();
  }
}, 120_000);

afterAll(async () => {
  await bff?.stop();
  await system?.stop();
  await receiver?.close();
});

/** A caller's traceparent: a new trace id and the caller's span id, sampled. */
function aTraceparent() {
  const traceId = randomBytes(16).toString('hex');
  const callerSpanId = randomBytes(8).toString('hex');
  return { traceId, callerSpanId, traceparent: `00-${traceId}-${callerSpanId}-01` };
}

/** The one span of `spans` from `service` of `kind` whose name is `name` (case-insensitive). */
function spanOf(spans: OtlpSpan[], service: string, kind: OtlpSpan['kind'], name: string) {
  return spans.find(
    (span) =>
      span.serviceName === service &&
      span.kind === kind &&
      span.name.toLowerCase() === name.toLowerCase(),
  );
}

/** True when `ancestor` is `span`'s parent, grandparent… within `spans`. */
function descends(spans: OtlpSpan[], span: OtlpSpan, ancestor: OtlpSpan): boolean {
  const byId = new Map(spans.map((each) => [each.spanId, each]));
  for (let parent = span.parentSpanId; parent; parent = byId.get(parent)?.parentSpanId)
    if (parent === ancestor.spanId) return true;
  return false;
}

const userTopic = topics.identityUser;

/** The topics the BFF's projector consumes (src/messaging/subscriptions.ts). */
const projectedTopics = new Set(
  subscriptions({} as RecordStore).map((subscription) => subscription.topic),
);

describe('one trace per username change', () => {
  test('when a username changes through the BFF, then the BFF, identity-profile, its relay, the projector and the socket emit report one trace, each span the child of the hop before', async () => {
    // Arrange
    const creator = await registeredCreator(system);
    const { traceId, callerSpanId, traceparent } = aTraceparent();

    // Act
    const answer = await callJson<BffBody<Me>>(bff.url, 'PATCH', '/api/me', {
      token: creator.accessToken,
      headers: { traceparent },
      body: { username: `traced${uniqueToken(8)}` },
    });

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const consumed = (spans: OtlpSpan[]) =>
      spanOf(spans, 'bff', 'CONSUMER', `process ${userTopic}`);
    // Each process exports its spans in its own batches: wait until every hop's has arrived.
    const spans = await receiver.waitForTrace(
      traceId,
      (received) =>
        !!consumed(received) &&
        !!spanOf(received, 'bff', 'SERVER', 'PATCH /api/me') &&
        !!spanOf(received, 'identity-profile', 'PRODUCER', `send ${userTopic}`) &&
        !!spanOf(received, 'bff', 'INTERNAL', 'socket emit user'),
    );
    const bffServer = spanOf(spans, 'bff', 'SERVER', 'PATCH /api/me');
    const bffClient = spanOf(spans, 'bff', 'CLIENT', 'PATCH');
    const identityServer = spanOf(spans, 'identity-profile', 'SERVER', 'PATCH /users/me');
    const outboxInsert = spanOf(
      spans,
      'identity-profile',
      'PRODUCER',
      `outbox insert ${userTopic}`,
    );
    const relaySend = spanOf(spans, 'identity-profile', 'PRODUCER', `send ${userTopic}`);
    const projector = consumed(spans);
    const emit = spanOf(spans, 'bff', 'INTERNAL', 'socket emit user');
    assert.ok(bffServer, 'the BFF server span');
    assert.ok(bffClient, 'the BFF → identity-profile client span');
    assert.ok(identityServer, 'the identity-profile server span');
    assert.ok(outboxInsert, 'the outbox insert span');
    assert.ok(relaySend, 'the relay send span');
    assert.ok(projector, 'the projector consume span');
    assert.ok(emit, 'the socket emit span');
    assert.equal(bffServer.parentSpanId, callerSpanId, 'the BFF continues the caller');
    assert.equal(bffClient.parentSpanId, bffServer.spanId);
    assert.equal(identityServer.parentSpanId, bffClient.spanId);
    assert.ok(descends(spans, outboxInsert, identityServer), 'the row is written in the request');
    assert.equal(relaySend.parentSpanId, outboxInsert.spanId, 'the relay continues the row');
    assert.equal(projector.parentSpanId, relaySend.spanId, 'the projector continues the message');
    // The BFF applies the command's answer at once (docs/adr/0007) and the projector then skips
    // the event; when the relay outruns the answer, the projector applies it and the emit is its.
    const skipped = projector.attributes['raly.consumer.skipped'] === true;
    const emits = spans.filter(
      (span) => span.serviceName === 'bff' && span.name.toLowerCase() === 'socket emit user',
    );
    for (const each of emits)
      assert.ok(
        skipped ? descends(spans, each, bffServer) : descends(spans, each, projector),
        skipped ? 'the emit belongs to the request' : 'the emit belongs to the projector',
      );
  });

  test('when a user changes at identity-profile directly, then the projector’s consume span continues the trace and the socket emit is its child', async () => {
    // Arrange
    const creator = await registeredCreator(system);
    const { traceId, traceparent } = aTraceparent();

    // Act
    const answer = await callJson(system.identityUrl, 'PATCH', '/users/me', {
      token: creator.accessToken,
      headers: { traceparent },
      body: { username: `direct${uniqueToken(8)}` },
    });

    // Assert
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const emitted = (spans: OtlpSpan[]) => spanOf(spans, 'bff', 'INTERNAL', 'socket emit user');
    const spans = await receiver.waitForTrace(traceId, (received) => !!emitted(received));
    const relaySend = spanOf(spans, 'identity-profile', 'PRODUCER', `send ${userTopic}`);
    const projector = spanOf(spans, 'bff', 'CONSUMER', `process ${userTopic}`);
    assert.ok(relaySend && projector, 'the relay and projector spans');
    assert.equal(projector.parentSpanId, relaySend.spanId);
    assert.equal(
      projector.attributes['raly.consumer.skipped'],
      undefined,
      'applied by the projector',
    );
    assert.equal(emitted(spans)!.parentSpanId, projector.spanId);
  });
});
