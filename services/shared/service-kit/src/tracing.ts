/**
 * OpenTelemetry tracing of every app: one trace from the browser's API call
 * through the BFF, the services it calls, the outbox row, the Kafka message
 * and its consumer, to the socket.io emit, carried by W3C Trace Context in
 * HTTP and Kafka headers and the outbox's `traceparent`/`tracestate` columns.
 * Spans are exported over OTLP/HTTP (protobuf or JSON), to Zipkin or to the
 * console, as the standard OTEL_* variables say ({@link tracingConfigShape}).
 * Each app owns its tracer provider (never the global one) and the active
 * context carries it ({@link activeTracer}), so apps started in one process
 * report under their own names. Off unless an exporter is configured: then
 * no span is made and every hook costs one lookup in an empty context.
 *
 * Every hop is explicit code of the kit, not an OpenTelemetry
 * instrumentation library (`instrumentation-http`, `-express`, `-kafkajs`,
 * `-pg`, `-ioredis`, `-socket.io`, `-pino`; docs/architecture.md "Tracing"),
 * because those do not fit how the apps run:
 * - they patch a module once per process and report through one tracer
 *   provider, so the apps a test or the bench starts in one process
 *   (identity-profile, brand, the BFF…) would all report under one service
 *   name, and the traces the tests check could not tell the hops apart;
 * - they hook `require`/`import` (require-in-the-middle, and an
 *   import-in-the-middle loader for ESM): the apps are esbuild bundles, so
 *   express, kafkajs, pg, ioredis, socket.io and pino would have to be left
 *   out of every bundle and shipped as node_modules in the images, started
 *   with `--import` of the hook; and vitest loads the apps' sources through
 *   its own module runner, where the hooks see nothing;
 * - the kafkajs one starts its producer span from the relay's active
 *   context, not from the context the outbox row kept, so the outbox hop
 *   would stay the kit's code anyway.
 * What the libraries would add beyond today's spans (a span per SQL query
 * or Redis command) is not worth those costs at the current targets
 * (docs/benchmarks.md).
 */
import {
  context,
  createContextKey,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { parseKeyPairsIntoRecord, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import type { RequestHandler } from 'express';
import { z } from 'zod';

/** The trace headers of W3C Trace Context, as HTTP and Kafka headers and outbox columns carry them. */
export interface TraceHeaders {
  traceparent?: string;
  tracestate?: string;
}

const samplers = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/** `k1=v1,k2=v2` with URL-encoded values (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES). */
const keyValuePairs = z
  .string()
  .regex(/^\s*$|^\s*[^=,\s]+\s*=[^,]*(,\s*[^=,\s]+\s*=[^,]*)*$/, 'expected key=value pairs');

/**
 * The tracing variables every app reads (the standard OpenTelemetry SDK names;
 * docs/conventions.md, docs/operations.md "Tracing"):
 * - OTEL_TRACES_EXPORTER: `otlp`, `zipkin`, `console` or `none`; unset, `otlp` when an
 *   OTLP endpoint is set, else `zipkin` when OTEL_EXPORTER_ZIPKIN_ENDPOINT is set, else
 *   `none` (tracing off);
 * - OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL, traces go to `<it>/v1/traces`
 *   (default of the `otlp` exporter: `http://localhost:4318`);
 *   OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: the full traces URL, taken as is (wins);
 * - OTEL_EXPORTER_OTLP_PROTOCOL / OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: `http/protobuf`
 *   (default) or `http/json` (OTLP/HTTP; gRPC is not supported);
 * - OTEL_EXPORTER_OTLP_HEADERS / OTEL_EXPORTER_OTLP_TRACES_HEADERS: `key=value,…`
 *   (URL-encoded values) sent with every export, e.g. an API key;
 * - OTEL_EXPORTER_OTLP_TIMEOUT / OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: ms per export request
 *   (default 10 000); OTEL_EXPORTER_OTLP_COMPRESSION: `gzip` or `none` (default);
 * - OTEL_EXPORTER_ZIPKIN_ENDPOINT: e.g. `http://127.0.0.1:9411/api/v2/spans`
 *   (default of the `zipkin` exporter: `http://localhost:9411/api/v2/spans`);
 * - OTEL_TRACES_SAMPLER (default `parentbased_always_on`) and
 *   OTEL_TRACES_SAMPLER_ARG (the ratio of the `traceidratio` samplers, 0..1, default 1);
 * - OTEL_SERVICE_NAME: the name spans are reported under (default the app's name);
 *   OTEL_RESOURCE_ATTRIBUTES: more resource attributes, `key=value,…`;
 * - OTEL_BSP_SCHEDULE_DELAY: ms between two exports of finished spans (default 5000);
 *   OTEL_BSP_EXPORT_TIMEOUT (ms, default 30 000), OTEL_BSP_MAX_QUEUE_SIZE (default 2048),
 *   OTEL_BSP_MAX_EXPORT_BATCH_SIZE (default 512).
 */
export const tracingConfigShape = {
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'zipkin', 'console', 'none']).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  OTEL_EXPORTER_OTLP_HEADERS: keyValuePairs.optional(),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: keyValuePairs.optional(),
  OTEL_EXPORTER_OTLP_TIMEOUT: z.coerce.number().int().positive().optional(),
  OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: z.coerce.number().int().positive().optional(),
  OTEL_EXPORTER_OTLP_COMPRESSION: z.enum(['gzip', 'none']).optional(),
  OTEL_EXPORTER_ZIPKIN_ENDPOINT: z.url().optional(),
  OTEL_TRACES_SAMPLER: z.enum(samplers).default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_RESOURCE_ATTRIBUTES: keyValuePairs.optional(),
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().positive().default(5000),
  OTEL_BSP_EXPORT_TIMEOUT: z.coerce.number().int().positive().default(30_000),
  OTEL_BSP_MAX_QUEUE_SIZE: z.coerce.number().int().positive().default(2048),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: z.coerce.number().int().positive().default(512),
};

/** The parsed tracing variables ({@link tracingConfigShape}); an app's whole config fits. */
export type TracingConfig = Partial<z.infer<z.ZodObject<typeof tracingConfigShape>>>;

/** An app's tracing: its tracer while enabled, and how to flush and stop it. */
export interface Tracing {
  /** False when no exporter is configured: no span is made anywhere. */
  readonly enabled: boolean;
  /** The app's tracer (a no-op one when disabled). */
  readonly tracer: Tracer;
  /** Exports the spans finished so far now. Never throws. */
  flush(): Promise<void>;
  /** Exports the spans still buffered and stops the provider. Never throws. */
  shutdown(): Promise<void>;
}

/** The W3C Trace Context propagator of every hop (HTTP, outbox rows, Kafka headers). */
const propagator = new W3CTraceContextPropagator();

/** Where the active context keeps the tracer of the app it runs in. */
const TRACER_KEY = createContextKey('raly.tracer');

/** Tracing as it is when no exporter is configured. */
export const tracingOff: Tracing = {
  enabled: false,
  tracer: trace.getTracer('raly-off'),
  flush: async () => undefined,
  shutdown: async () => undefined,
};

let contextManagerInstalled = false;

/** Installs the process's AsyncLocalStorage context manager, once (the first app with tracing on). */
function installContextManager(): void {
  if (contextManagerInstalled) return;
  contextManagerInstalled = context.setGlobalContextManager(
    new AsyncLocalStorageContextManager().enable(),
  );
}

function samplerOf(config: TracingConfig): Sampler {
  const ratio = config.OTEL_TRACES_SAMPLER_ARG ?? 1;
  switch (config.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on') {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** The OTLP traces URL: the traces endpoint as is, else `<endpoint>/v1/traces`, else the local default. */
export function otlpTracesUrl(config: TracingConfig): string {
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = config.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://localhost:4318';
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

type OtlpOptions = NonNullable<ConstructorParameters<typeof OtlpProtobufExporter>[0]>;

/** The OTLP exporter (OTLP/HTTP, protobuf or JSON) the variables describe. */
function otlpExporterOf(config: TracingConfig): SpanExporter {
  const options: OtlpOptions = {
    url: otlpTracesUrl(config),
    headers: {
      ...parseKeyPairsIntoRecord(config.OTEL_EXPORTER_OTLP_HEADERS),
      ...parseKeyPairsIntoRecord(config.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
    },
    timeoutMillis: config.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? config.OTEL_EXPORTER_OTLP_TIMEOUT,
    compression: config.OTEL_EXPORTER_OTLP_COMPRESSION as OtlpOptions['compression'],
  };
  const protocol =
    config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ??
    config.OTEL_EXPORTER_OTLP_PROTOCOL ??
    'http/protobuf';
  return protocol === 'http/json'
    ? new OtlpJsonExporter(options)
    : new OtlpProtobufExporter(options);
}

/**
 * The exporter the variables ask for.
 * @returns undefined when tracing is off
 */
function exporterOf(config: TracingConfig, serviceName: string): SpanExporter | undefined {
  const kind =
    config.OTEL_TRACES_EXPORTER ??
    (config.OTEL_EXPORTER_OTLP_ENDPOINT || config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
      ? 'otlp'
      : config.OTEL_EXPORTER_ZIPKIN_ENDPOINT
        ? 'zipkin'
        : 'none');
  if (kind === 'otlp') return otlpExporterOf(config);
  if (kind === 'zipkin')
    return new ZipkinExporter({ url: config.OTEL_EXPORTER_ZIPKIN_ENDPOINT, serviceName });
  if (kind === 'console') return new ConsoleSpanExporter();
  return undefined;
}

/**
 * Starts an app's tracing from its configuration ({@link tracingConfigShape}).
 * @param appName the app's name (`bff`, `identity-profile`…): the service name of its spans
 *   unless OTEL_SERVICE_NAME says otherwise
 * @param exporter where spans go instead of the configured exporter (tests: an in-memory one)
 * @returns {@link tracingOff} when no exporter is configured or given; else a tracer whose
 *   finished spans are exported in batches (every OTEL_BSP_SCHEDULE_DELAY ms)
 */
export function startTracing(
  appName: string,
  config: TracingConfig = {},
  exporter: SpanExporter | undefined = exporterOf(config, config.OTEL_SERVICE_NAME ?? appName),
): Tracing {
  const serviceName = config.OTEL_SERVICE_NAME ?? appName;
  if (!exporter) return tracingOff;
  installContextManager();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      ...parseKeyPairsIntoRecord(config.OTEL_RESOURCE_ATTRIBUTES),
      'service.name': serviceName,
    }),
    sampler: samplerOf(config),
    spanProcessors: [
      new BatchSpanProcessor(exporter, {
        scheduledDelayMillis: config.OTEL_BSP_SCHEDULE_DELAY ?? 5000,
        exportTimeoutMillis: config.OTEL_BSP_EXPORT_TIMEOUT ?? 30_000,
        maxQueueSize: config.OTEL_BSP_MAX_QUEUE_SIZE ?? 2048,
        maxExportBatchSize: config.OTEL_BSP_MAX_EXPORT_BATCH_SIZE ?? 512,
      }),
    ],
  });
  return {
    enabled: true,
    tracer: provider.getTracer('@raly/service-kit'),
    flush: () => provider.forceFlush().catch(() => undefined),
    shutdown: () => provider.shutdown().catch(() => undefined),
  };
}

/** The tracer of the app the current code runs for, when its tracing is on. */
export function activeTracer(): Tracer | undefined {
  return context.active().getValue(TRACER_KEY) as Tracer | undefined;
}

/** `base` with `span` active and `tracer` as the app's tracer. */
function contextWith(base: Context, span: Span, tracer: Tracer): Context {
  return trace.setSpan(base, span).setValue(TRACER_KEY, tracer);
}

/**
 * The W3C trace headers of a context.
 * @param from default the active context
 * @returns `traceparent` (and `tracestate` when there is one); `{}` without a valid span
 */
export function traceHeaders(from: Context = context.active()): TraceHeaders {
  const carrier: Record<string, string> = {};
  propagator.inject(from, carrier, defaultTextMapSetter);
  return carrier;
}

/**
 * The context the W3C headers of a request or message continue.
 * @param headers header names in lower case; values as strings, string arrays or Buffers (Kafka)
 * @returns a context with the remote span; the root context when the headers carry none (or a malformed one)
 */
export function contextFromHeaders(
  headers: Record<string, string | string[] | Buffer | (string | Buffer)[] | undefined> | undefined,
): Context {
  if (!headers) return ROOT_CONTEXT;
  const text = (value: unknown): string | undefined =>
    Array.isArray(value) ? text(value[0]) : value === undefined ? undefined : String(value);
  return propagator.extract(
    ROOT_CONTEXT,
    { traceparent: text(headers.traceparent), tracestate: text(headers.tracestate) },
    defaultTextMapGetter,
  );
}

/** Paths that make no span: probes and scrapes, polled all the time. */
const untracedPaths = /^\/(health|metrics)(\/|$)/;

/**
 * Express middleware (first of the app): a SERVER span per request, the
 * child of the request's `traceparent` when it has one, active while the
 * request is handled (its body's events included), ended when the answer is
 * sent or the connection closes. Named `<METHOD> <route>` once a route matched.
 * @param tracing the app's tracing; when off, the middleware only calls `next()`
 */
export function httpServerSpans(tracing: Tracing): RequestHandler {
  if (!tracing.enabled) return (_req, _res, next) => next();
  return (req, res, next) => {
    if (untracedPaths.test(req.path)) {
      next();
      return;
    }
    const parent = contextFromHeaders(req.headers);
    const span = tracing.tracer.startSpan(
      req.method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'url.path': req.path },
      },
      parent,
    );
    const active = contextWith(parent, span, tracing.tracer);
    // The body's and the answer's events come from the socket, outside this context: bind them.
    context.bind(active, req);
    context.bind(active, res);
    let route: string | undefined;
    res.once('finish', () => end());
    res.once('close', () => end());
    function end() {
      if (!span.isRecording()) return;
      route ??= routeOf(req);
      if (route) {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      if (res.writableFinished) {
        span.setAttribute('http.response.status_code', res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      } else span.setStatus({ code: SpanStatusCode.ERROR, message: 'connection closed early' });
      span.end();
    }
    // The route is known while the handler runs; remember it before the routers unwind.
    res.once('prefinish', () => (route ??= routeOf(req)));
    context.with(active, next);
  };
}

/** The matched route template (`/api/me`, `/users/:id`), when a route matched. */
function routeOf(req: Parameters<RequestHandler>[0]): string | undefined {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string') return undefined;
  // A router mounted at `/api/me` answering its `/`: the route is `/api/me`.
  return path === '/' && req.baseUrl ? req.baseUrl : `${req.baseUrl}${path}`;
}

/**
 * Runs an outgoing HTTP call in a CLIENT span (a child of the active span)
 * and puts the span's `traceparent`/`tracestate` into its headers. Without
 * an active app tracer (tracing off, no request in progress) it only calls.
 * @param method HTTP method
 * @param url the target (only its origin and path are recorded)
 * @param headers the call's headers, completed in place
 * @param call sends the request; its `status` is recorded
 * @returns what `call` returned
 * @throws what `call` threw, recorded on the span
 */
export async function inClientSpan<T extends { status: number }>(
  method: string,
  url: URL,
  headers: Record<string, string>,
  call: () => Promise<T>,
): Promise<T> {
  const tracer = activeTracer();
  if (!tracer) return call();
  const span = tracer.startSpan(method, {
    kind: SpanKind.CLIENT,
    attributes: {
      'http.request.method': method,
      'server.address': url.hostname,
      'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
      'url.full': `${url.origin}${url.pathname}`,
    },
  });
  const active = contextWith(context.active(), span, tracer);
  Object.assign(headers, traceHeaders(active));
  try {
    const answer = await context.with(active, call);
    span.setAttribute('http.response.status_code', answer.status);
    if (answer.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    return answer;
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Marks a span failed by `error`. */
function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

/**
 * Runs synchronous work in an INTERNAL span, a child of the active span
 * (the socket emit). Without an active app tracer it only runs `work`.
 * @param name span name, e.g. `socket emit user`
 * @returns what `work` returned
 * @throws what `work` threw, recorded on the span
 */
export function inSpan<T>(name: string, attributes: Attributes, work: () => T): T {
  const tracer = activeTracer();
  if (!tracer) return work();
  const span = tracer.startSpan(name, { attributes });
  try {
    return context.with(contextWith(context.active(), span, tracer), work);
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/**
 * The trace context an outbox row keeps (the columns `traceparent`,
 * `tracestate`): a PRODUCER span `outbox insert <topic>`, the child of the
 * active span, marks the row's creation in the write's transaction; the
 * relay's send continues from it. Without an active app tracer: `{}`.
 * @param row the row's topic, event type and id (the event's id)
 */
export function outboxRowTrace(row: {
  topic: string;
  eventType: string;
  id: string;
}): TraceHeaders {
  const tracer = activeTracer();
  if (!tracer) return {};
  const span = tracer.startSpan(`outbox insert ${row.topic}`, {
    kind: SpanKind.PRODUCER,
    attributes: messagingAttributes(row.topic, row.id, row.eventType),
  });
  span.end();
  return traceHeaders(trace.setSpan(context.active(), span));
}

function messagingAttributes(topic: string, eventId: string, eventType: string): Attributes {
  return {
    'messaging.system': 'kafka',
    'messaging.destination.name': topic,
    'messaging.message.id': eventId,
    'raly.event_type': eventType,
  };
}

/** A relay's send of one outbox row: the Kafka headers to send, and the end of its span. */
export interface RowSend {
  /** `traceparent`/`tracestate` for the message (empty when the row has no context). */
  headers: TraceHeaders;
  /** Ends the send span; `error` marks it failed. */
  end(error?: unknown): void;
}

/**
 * Starts the relay's PRODUCER span `send <topic>` for one outbox row, the
 * child of the context the row kept. With tracing off the row's own
 * context goes on unchanged (so a consumer with tracing on still joins it).
 * @param tracing the relay's app's tracing
 * @param row the claimed row with its kept `traceparent`/`tracestate`
 */
export function startRowSend(
  tracing: Tracing,
  topic: string,
  row: { id: string; eventType: string; traceparent?: string | null; tracestate?: string | null },
): RowSend {
  const kept: TraceHeaders = {};
  if (row.traceparent) {
    kept.traceparent = row.traceparent;
    if (row.tracestate) kept.tracestate = row.tracestate;
  }
  if (!tracing.enabled || !kept.traceparent) return { headers: kept, end: () => undefined };
  const parent = contextFromHeaders({ ...kept });
  const span = tracing.tracer.startSpan(
    `send ${topic}`,
    { kind: SpanKind.PRODUCER, attributes: messagingAttributes(topic, row.id, row.eventType) },
    parent,
  );
  return {
    headers: traceHeaders(trace.setSpan(parent, span)),
    end(error) {
      if (error !== undefined) failed(span, error);
      span.end();
    },
  };
}

/**
 * Handles one consumed message in a CONSUMER span `process <topic>`, the
 * child of the context its headers carry (a new trace when they carry
 * none), active while `work` runs so the handler's calls, outbox rows and
 * socket emits join the trace.
 * @param tracing the consumer's app's tracing; when off, only `work` runs
 * @param message topic, partition, offset, headers and the event's id and type
 * @param work handles the message; a returned string is a poison reason (the span is marked failed)
 * @returns what `work` returned
 */
export async function inConsumerSpan<T>(
  tracing: Tracing,
  message: {
    topic: string;
    partition: number;
    offset: string;
    headers: Parameters<typeof contextFromHeaders>[0];
    eventId?: string;
    eventType?: string;
    /** True for a message skipped as already applied (attribute `raly.consumer.skipped`). */
    skipped?: boolean;
  },
  work: () => Promise<T>,
): Promise<T> {
  if (!tracing.enabled) return work();
  const parent = contextFromHeaders(message.headers);
  const span = tracing.tracer.startSpan(
    `process ${message.topic}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        ...messagingAttributes(message.topic, message.eventId ?? '', message.eventType ?? ''),
        'messaging.destination.partition.id': String(message.partition),
        'messaging.kafka.offset': Number(message.offset),
        ...(message.skipped ? { 'raly.consumer.skipped': true } : {}),
      },
    },
    parent,
  );
  try {
    const result = await context.with(contextWith(parent, span, tracing.tracer), work);
    if (typeof result === 'string') span.setStatus({ code: SpanStatusCode.ERROR, message: result });
    return result;
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/**
 * pino's mixin: `trace_id` and `span_id` of the active span on every log
 * line written while it is active (nothing otherwise).
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
