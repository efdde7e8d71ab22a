/**
 * Tracing (src/tracing.ts): W3C header inject/extract, the server span of
 * the kit's express app continuing the caller's `traceparent`, the client
 * span of the kit's HTTP client putting the trace into the next call, the
 * log lines' trace fields, and nothing at all when no exporter is
 * configured. Spans go to an in-memory exporter.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { z } from 'zod';
import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createHttpApp, listen } from '../src/http';
import { callHttp, callInternal } from '../src/internal';
import { createLogger } from '../src/logger';
import {
  contextFromHeaders,
  otlpTracesUrl,
  startTracing,
  tracingConfigShape,
  traceHeaders,
  traceLogFields,
  type Tracing,
} from '../src/tracing';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const callerSpanId = '00f067aa0ba902b7';
const callerTraceparent = `00-${traceId}-${callerSpanId}-01`;
const traceparentFormat = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

describe('W3C trace headers', () => {
  test('when a traceparent and tracestate are extracted and injected again, then the same values come out', () => {
    // Act
    const context = contextFromHeaders({ traceparent: callerTraceparent, tracestate: 'raly=1' });

    // Assert
    assert.deepEqual(traceHeaders(context), {
      traceparent: callerTraceparent,
      tracestate: 'raly=1',
    });
    assert.equal(trace.getSpanContext(context)?.isRemote, true);
  });

  test('when the headers come from Kafka as Buffers, then the trace is extracted the same', () => {
    // Act
    const context = contextFromHeaders({ traceparent: Buffer.from(callerTraceparent) });

    // Assert
    assert.equal(trace.getSpanContext(context)?.traceId, traceId);
    assert.equal(trace.getSpanContext(context)?.spanId, callerSpanId);
  });

  test('when the traceparent is malformed or missing, then no trace is continued and nothing is injected', () => {
    for (const headers of [
      { traceparent: '00-xyz-00f067aa0ba902b7-01' },
      { traceparent: `00-${'0'.repeat(32)}-${callerSpanId}-01` },
      {},
      undefined,
    ]) {
      // Act
      const context = contextFromHeaders(headers);

      // Assert
      assert.equal(trace.getSpanContext(context), undefined, JSON.stringify(headers));
      assert.deepEqual(traceHeaders(context), {});
    }
  });
});

/** Two kit apps: `front` calls `back` with the kit's HTTP client, as the BFF calls a service. */
async function startPair(tracing: { front: Tracing; back: Tracing }) {
  const logger = createLogger('kit-tracing-test', 'silent');
  const seen: { backHeaders?: Record<string, unknown>; logFields?: object } = {};
  const back = await listen(
    createHttpApp({
      logger,
      tracing: tracing.back,
      routes: (app) =>
        app.get('/users/:id', (req, res) => {
          seen.backHeaders = req.headers;
          res.json({ data: { id: req.params.id } });
        }),
    }),
    0,
  );
  const front = await listen(
    createHttpApp({
      logger,
      tracing: tracing.front,
      routes: (app) =>
        app.patch('/api/me', async (req, res) => {
          seen.logFields = traceLogFields();
          const answer = await callInternal(
            `http://127.0.0.1:${back.port}`,
            {
              clientId: 'kit-tracing-test',
              token: async () => 'a-service-token',
              forget: () => {},
            },
            '/users/u1',
            { method: 'GET' },
          );
          res.json({ got: req.body, answer: answer.body });
        }),
    }),
    0,
  );
  return {
    front,
    seen,
    async stop() {
      await front.close();
      await back.close();
    },
  };
}

describe('spans across two apps', () => {
  const exporter = new InMemorySpanExporter();
  const front = startTracing('front', {}, exporter);
  const back = startTracing('back', {}, exporter);
  let pair: Awaited<ReturnType<typeof startPair>>;

  beforeAll(async () => {
    pair = await startPair({ front, back });
  });
  afterAll(async () => {
    await pair.stop();
    await front.shutdown();
    await back.shutdown();
  });

  test('when a request carries a traceparent, then the server span, the client span and the called app’s server span continue its trace as parent and children', async () => {
    // Act
    const traced = await fetch(`http://127.0.0.1:${pair.front.port}/api/me`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', traceparent: callerTraceparent },
      body: JSON.stringify({ username: 'someone' }),
    });
    await front.flush();
    await back.flush();

    // Assert
    assert.equal(traced.status, 200);
    const spans = exporter
      .getFinishedSpans()
      .filter((span) => span.spanContext().traceId === traceId);
    const byKind = (kind: SpanKind, service: string) =>
      spans.find(
        (span) => span.kind === kind && span.resource.attributes['service.name'] === service,
      );
    const frontServer = byKind(SpanKind.SERVER, 'front');
    const client = byKind(SpanKind.CLIENT, 'front');
    const backServer = byKind(SpanKind.SERVER, 'back');
    assert.ok(frontServer && client && backServer, spans.map((span) => span.name).join(', '));
    assert.equal(parentOf(frontServer), callerSpanId);
    assert.equal(frontServer.name, 'PATCH /api/me');
    assert.equal(frontServer.attributes['http.response.status_code'], 200);
    assert.equal(parentOf(client), frontServer.spanContext().spanId);
    assert.equal(
      client.attributes['url.full'],
      `http://127.0.0.1:${client.attributes['server.port']}/users/u1`,
    );
    assert.equal(parentOf(backServer), client.spanContext().spanId);
    assert.equal(backServer.name, 'GET /users/:id');
    const sent = traceparentFormat.exec(String(pair.seen.backHeaders?.traceparent));
    assert.deepEqual(sent?.slice(1, 3), [traceId, client.spanContext().spanId]);
    assert.deepEqual(pair.seen.logFields, {
      trace_id: traceId,
      span_id: frontServer.spanContext().spanId,
    });
  });

  test('when a request carries no traceparent, then a new trace starts at the server span and still reaches the called app', async () => {
    // Act
    const answer = await callHttp(`http://127.0.0.1:${pair.front.port}/api/me`, {
      method: 'PATCH',
      json: {},
    });
    await front.flush();

    // Assert
    assert.equal(answer.status, 200);
    const sent = traceparentFormat.exec(String(pair.seen.backHeaders?.traceparent));
    assert.ok(sent, 'the called app got a traceparent');
    const root = exporter
      .getFinishedSpans()
      .find((span) => span.kind === SpanKind.SERVER && span.spanContext().traceId === sent[1]);
    assert.ok(root, 'the front server span started the trace');
    assert.equal(parentOf(root), undefined);
  });

  test('when a probe is called, then it makes no span', async () => {
    // Arrange
    const before = exporter.getFinishedSpans().length;

    // Act
    const answer = await callHttp(`http://127.0.0.1:${pair.front.port}/health/live`, {
      method: 'GET',
    });
    await front.flush();

    // Assert
    assert.equal(answer.status, 200);
    assert.equal(exporter.getFinishedSpans().length, before);
  });
});

describe('tracing off', () => {
  test('when no exporter is configured, then tracing is off: no trace header goes on and no log line gets trace fields', async () => {
    // Arrange
    const off = startTracing('off-app', { OTEL_TRACES_SAMPLER: 'parentbased_always_on' });
    const pair = await startPair({ front: off, back: off });

    try {
      // Act
      const answer = await fetch(`http://127.0.0.1:${pair.front.port}/api/me`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', traceparent: callerTraceparent },
        body: '{}',
      });

      // Assert
      assert.equal(off.enabled, false);
      assert.equal(answer.status, 200);
      assert.equal(pair.seen.backHeaders?.traceparent, undefined);
      assert.deepEqual(pair.seen.logFields, {});
    } finally {
      await pair.stop();
    }
  });

  test('when OTEL_TRACES_EXPORTER=none, then tracing is off even with a Zipkin endpoint set', async () => {
    // Act
    const tracing = startTracing('none-app', {
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_EXPORTER_ZIPKIN_ENDPOINT: 'http://127.0.0.1:16999/api/v2/spans',
    });

    // Assert
    assert.equal(tracing.enabled, false);
    const zipkin = startTracing('zipkin-app', {
      OTEL_EXPORTER_ZIPKIN_ENDPOINT: 'http://127.0.0.1:16999/api/v2/spans',
    });
    assert.equal(zipkin.enabled, true);
    await zipkin.shutdown();
  });

  test('when only an OTLP endpoint is set, then tracing is on; with OTEL_TRACES_EXPORTER=none it is off', async () => {
    // Act
    const otlp = startTracing('otlp-app', {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:16999',
    });
    const none = startTracing('none-app', {
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:16999/v1/traces',
    });

    // Assert
    assert.equal(otlp.enabled, true);
    assert.equal(none.enabled, false);
    await otlp.shutdown();
  });
});

describe('OTLP export', () => {
  test('when the endpoint variables are set, then traces go to the signal endpoint as is, else to <endpoint>/v1/traces, else to the local default', () => {
    assert.equal(
      otlpTracesUrl({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/custom',
      }),
      'http://traces:4318/custom',
    );
    assert.equal(
      otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/otlp/' }),
      'http://collector:4318/otlp/v1/traces',
    );
    assert.equal(otlpTracesUrl({}), 'http://localhost:4318/v1/traces');
  });

  test('when the variables are malformed or ask for gRPC, then the configuration is refused', () => {
    const shape = z.object(tracingConfigShape);
    for (const bad of [
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      { OTEL_EXPORTER_OTLP_HEADERS: 'no-equals-sign' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' },
      { OTEL_TRACES_EXPORTER: 'jaeger' },
      { OTEL_BSP_MAX_QUEUE_SIZE: '0' },
    ])
      assert.equal(shape.safeParse(bad).success, false, JSON.stringify(bad));
    assert.equal(
      shape.safeParse({ OTEL_EXPORTER_OTLP_HEADERS: 'api-key=s%3Dcret, x-team=raly' }).success,
      true,
    );
  });

  test('when spans are exported over OTLP, then the request is protobuf to /v1/traces with the configured headers, and the resource has the service name and the extra attributes', async () => {
    // Arrange: a stand-in collector that records the export request.
    const requests: { url?: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const collector = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        requests.push({ url: request.url, headers: request.headers, body: Buffer.concat(chunks) });
        response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const { port } = collector.address() as AddressInfo;
    const tracing = startTracing('exported-app', {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=s%3Dcret,x-team=raly',
      OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=exported-app-2',
    });

    try {
      // Act
      tracing.tracer.startSpan('a span').end();
      await tracing.flush();

      // Assert
      assert.equal(requests.length, 1);
      const [request] = requests;
      assert.equal(request!.url, '/v1/traces');
      assert.equal(request!.headers['content-type'], 'application/x-protobuf');
      assert.equal(request!.headers['api-key'], 's=cret');
      assert.equal(request!.headers['x-team'], 'raly');
      const body = request!.body.toString('latin1');
      for (const text of ['exported-app', 'service.instance.id', 'exported-app-2', 'a span'])
        assert.ok(body.includes(text), text);
    } finally {
      await tracing.shutdown();
      await new Promise((resolve) => collector.close(resolve));
    }
  });
});

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
