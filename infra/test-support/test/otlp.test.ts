/**
 * The OTLP/HTTP trace receiver (src/otlp.ts) against the OpenTelemetry SDK's
 * own exporters, as the apps configure them (service-kit startTracing):
 * protobuf and JSON, gzip, and what it refuses.
 */
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { startTracing } from '@raly/service-kit/tracing';
import { startOtlpReceiver, type OtlpReceiver } from '../src/otlp';

let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

/** Exports one parent and one child span through the kit's OTLP exporter with `config`. */
async function exportTwoSpans(config: Record<string, string>) {
  const tracing = startTracing('receiver-test', {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    ...config,
  } as Parameters<typeof startTracing>[1]);
  const parent = tracing.tracer.startSpan('PATCH /api/me', {
    kind: SpanKind.SERVER,
    attributes: { 'http.response.status_code': 200, 'raly.flag': true },
  });
  const child = tracing.tracer.startSpan(
    'send identity.user.v1',
    { kind: SpanKind.PRODUCER, attributes: { 'messaging.destination.name': 'identity.user.v1' } },
    trace.setSpan(context.active(), parent),
  );
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'broker away' });
  child.end();
  parent.end();
  await tracing.shutdown();
  return { traceId: parent.spanContext().traceId, parent, child };
}

describe('OTLP receiver', () => {
  for (const [protocol, contentType] of [
    ['http/protobuf', 'application/x-protobuf'],
    ['http/json', 'application/json'],
  ] as const)
    test(`when an app exports over ${protocol}, then its spans arrive with ids, parent, kind, service, attributes and status`, async () => {
      // Arrange
      const before = receiver.requests.get(contentType) ?? 0;

      // Act
      const sent = await exportTwoSpans({ OTEL_EXPORTER_OTLP_PROTOCOL: protocol });

      // Assert
      const spans = await receiver.waitForTrace(sent.traceId, (got) => got.length === 2, 5000);
      assert.equal(receiver.requests.get(contentType), before + 1);
      const server = spans.find((span) => span.kind === 'SERVER');
      const producer = spans.find((span) => span.kind === 'PRODUCER');
      assert.ok(server && producer);
      assert.equal(server.spanId, sent.parent.spanContext().spanId);
      assert.equal(server.parentSpanId, undefined);
      assert.equal(server.name, 'PATCH /api/me');
      assert.equal(server.serviceName, 'receiver-test');
      assert.equal(server.attributes['http.response.status_code'], 200);
      assert.equal(server.attributes['raly.flag'], true);
      assert.ok(server.endTimeUnixNano >= server.startTimeUnixNano);
      assert.ok(server.startTimeUnixNano > 1_600_000_000_000_000_000n);
      assert.equal(producer.parentSpanId, server.spanId);
      assert.equal(producer.attributes['messaging.destination.name'], 'identity.user.v1');
      assert.deepEqual(producer.status, { code: 'ERROR', message: 'broker away' });
    });

  test('when the export is gzip-compressed and sent to the traces endpoint, then it arrives the same', async () => {
    // Act
    const sent = await exportTwoSpans({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.tracesUrl,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9/unused',
      OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip',
    });

    // Assert
    const spans = await receiver.waitForTrace(sent.traceId, (got) => got.length === 2, 5000);
    assert.deepEqual(spans.map((span) => span.kind).sort(), ['PRODUCER', 'SERVER']);
  });

  test('when a request is not an OTLP trace export, then it is refused and nothing is kept', async () => {
    // Arrange
    const count = receiver.spans.length;
    const post = (path: string, type: string, body: string | Blob) =>
      fetch(`${receiver.endpoint}${path}`, {
        method: 'POST',
        headers: { 'content-type': type },
        body,
      }).then((answer) => answer.status);

    // Act
    const statuses = [
      await post('/v1/metrics', 'application/json', '{}'),
      await post('/v1/traces', 'text/plain', 'spans'),
      await post('/v1/traces', 'application/json', '{"resourceSpans":'),
      await post(
        '/v1/traces',
        'application/x-protobuf',
        new Blob([new Uint8Array([0x0a, 0xff, 0xff])]),
      ),
    ];

    // Assert
    assert.deepEqual(statuses, [404, 415, 400, 400]);
    assert.equal(receiver.spans.length, count);
  });
});
