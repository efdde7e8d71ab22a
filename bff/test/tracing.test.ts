/**
 * One trace across the processes a username change touches: the
 * BFF, identity-profile and its outbox relay, the BFF's projector and its
 * socket emit all export to a Zipkin-compatible receiver run by this test,
 * and the spans of one change share the trace id the caller's `traceparent`
 * named, each the child of the hop before it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Me } from '@raly/contracts/bff-api';
import { topics } from '@raly/contracts/events';
import type { RunningBff } from '../src/app';
import { isolatedLive } from './support/offers';
import { callJson, testStack, uniqueToken } from '@raly/test-support';
import { startTestBff, type BffBody } from '@raly/test-support/bff';
import { registeredCreator, startSystem, type RalySystem } from '@raly/test-support/system';
import {
  startZipkinReceiver,
  type ZipkinReceiver,
  type ZipkinSpan,
} from '@raly/test-support/zipkin';

let receiver: ZipkinReceiver;
let system: RalySystem;
let bff: RunningBff;

beforeAll(async () => {
  receiver = await startZipkinReceiver();
  // Every app exports to the receiver, a batch every 100 ms.
  const tracing = {
    OTEL_EXPORTER_ZIPKIN_ENDPOINT: receiver.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
  system = await startSystem({ env: { common: tracing } });
  bff = await startTestBff(await testStack(), {
    IDENTITY_URL: system.identityUrl,
    BRAND_URL: system.brandUrl,
    ...isolatedLive(),
    OTEL_EXPORTER_ZIPKIN_ENDPOINT: receiver.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: 100,
  });
});

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
function spanOf(spans: ZipkinSpan[], service: string, kind: ZipkinSpan['kind'], name: string) {
  return spans.find(
    (span) =>
      span.localEndpoint?.serviceName === service &&
      span.kind === kind &&
      span.name.toLowerCase() === name.toLowerCase(),
  );
}

/** True when `ancestor` is `span`'s parent, grandparent… within `spans`. */
function descends(spans: ZipkinSpan[], span: ZipkinSpan, ancestor: ZipkinSpan): boolean {
  const byId = new Map(spans.map((each) => [each.id, each]));
  for (let parent = span.parentId; parent; parent = byId.get(parent)?.parentId)
    if (parent === ancestor.id) return true;
  return false;
}

const userTopic = topics.identityUser;

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
    const consumed = (spans: ZipkinSpan[]) =>
      spanOf(spans, 'bff', 'CONSUMER', `process ${userTopic}`);
    // Each process exports its spans in its own batches: wait until every hop's has arrived.
    const spans = await receiver.waitForTrace(
      traceId,
      (received) =>
        !!consumed(received) &&
        !!spanOf(received, 'bff', 'SERVER', 'PATCH /api/me') &&
        !!spanOf(received, 'identity-profile', 'PRODUCER', `send ${userTopic}`) &&
        !!spanOf(received, 'bff', undefined, 'socket emit user'),
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
    const emit = spanOf(spans, 'bff', undefined, 'socket emit user');
    assert.ok(bffServer, 'the BFF server span');
    assert.ok(bffClient, 'the BFF → identity-profile client span');
    assert.ok(identityServer, 'the identity-profile server span');
    assert.ok(outboxInsert, 'the outbox insert span');
    assert.ok(relaySend, 'the relay send span');
    assert.ok(projector, 'the projector consume span');
    assert.ok(emit, 'the socket emit span');
    assert.equal(bffServer.parentId, callerSpanId, 'the BFF continues the caller');
    assert.equal(bffClient.parentId, bffServer.id);
    assert.equal(identityServer.parentId, bffClient.id);
    assert.ok(descends(spans, outboxInsert, identityServer), 'the row is written in the request');
    assert.equal(relaySend.parentId, outboxInsert.id, 'the relay continues the row');
    assert.equal(projector.parentId, relaySend.id, 'the projector continues the message');
    assert.equal(projector.tags?.['raly.consumer.skipped'], 'true', 'applied with the answer');
    // The BFF pushed the command's answer at once (docs/adr/0007): the emit is the request's.
    assert.ok(descends(spans, emit, bffServer), 'the emit belongs to the request');
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
    const emitted = (spans: ZipkinSpan[]) => spanOf(spans, 'bff', undefined, 'socket emit user');
    const spans = await receiver.waitForTrace(traceId, (received) => !!emitted(received));
    const relaySend = spanOf(spans, 'identity-profile', 'PRODUCER', `send ${userTopic}`);
    const projector = spanOf(spans, 'bff', 'CONSUMER', `process ${userTopic}`);
    assert.ok(relaySend && projector, 'the relay and projector spans');
    assert.equal(projector.parentId, relaySend.id);
    assert.equal(projector.tags?.['raly.consumer.skipped'], undefined, 'applied by the projector');
    assert.equal(emitted(spans)!.parentId, projector.id);
  });
});
