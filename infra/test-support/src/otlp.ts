/**
 * An OTLP/HTTP trace receiver for tests: an HTTP server on loopback that
 * takes what apps export to `POST /v1/traces` (OTLP 1.x over HTTP, protobuf
 * `application/x-protobuf` or JSON `application/json`, gzip or not), the
 * endpoint OTEL_EXPORTER_OTLP_ENDPOINT points at, and keeps every span, so a
 * test can check the traces of a flow without running a collector (none is
 * packaged for npm, Maven Central or Debian). Protobuf is decoded with
 * protobufjs and the OTLP schema of ./otlp/trace.proto; both encodings end
 * up as the same {@link OtlpSpan}s.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { closeServer, waitForTraceIn } from './span-receiver';

/** An attribute value as OTLP carries it (int64 as a number: tests read small ones). */
export type OtlpValue = string | number | boolean | OtlpValue[] | { [key: string]: OtlpValue };

/** One span as the receiver got it, the same for protobuf and JSON exports. */
export interface OtlpSpan {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** Absent for a root span. */
  parentSpanId?: string;
  name: string;
  kind: 'UNSPECIFIED' | 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';
  /** Start and end, ns since the epoch. */
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  /** The resource's `service.name`. */
  serviceName?: string;
  resource: Record<string, OtlpValue>;
  attributes: Record<string, OtlpValue>;
  status: { code: 'UNSET' | 'OK' | 'ERROR'; message?: string };
  /** When the receiver got it (ms since the epoch). */
  receivedAtMs: number;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** The base URL for OTEL_EXPORTER_OTLP_ENDPOINT, e.g. `http://127.0.0.1:41234`. */
  endpoint: string;
  /** The traces URL (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): `<endpoint>/v1/traces`. */
  tracesUrl: string;
  /** Every span received so far, in arrival order. */
  spans: OtlpSpan[];
  /** The export requests received so far, by content type (`application/x-protobuf`…). */
  requests: Map<string, number>;
  /**
   * The spans of one trace once `complete` accepts them.
   * @param timeoutMs default 30 000
   * @throws when the trace is not complete in time (the message lists the spans received)
   */
  waitForTrace(
    traceId: string,
    complete: (spans: OtlpSpan[]) => boolean,
    timeoutMs?: number,
  ): Promise<OtlpSpan[]>;
  close(): Promise<void>;
}

const schema = protobuf.loadSync(fileURLToPath(new URL('./otlp/trace.proto', import.meta.url)));
const exportRequest = schema.lookupType('raly.otlp.ExportTraceServiceRequest');
const exportResponse = schema.lookupType('raly.otlp.ExportTraceServiceResponse');

const kinds: OtlpSpan['kind'][] = [
  'UNSPECIFIED',
  'INTERNAL',
  'SERVER',
  'CLIENT',
  'PRODUCER',
  'CONSUMER',
];
const statusCodes: OtlpSpan['status']['code'][] = ['UNSET', 'OK', 'ERROR'];

/** The request in OTLP/JSON's shape (lowerCamelCase fields, hex ids, enums as numbers). */
interface JsonRequest {
  resourceSpans?: {
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: { spans?: JsonSpan[] }[];
  }[];
}
interface JsonKeyValue {
  key: string;
  value?: JsonAnyValue;
}
interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
  kvlistValue?: { values?: JsonKeyValue[] };
  bytesValue?: string;
}
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number | string;
  startTimeUnixNano?: string | number;
  endTimeUnixNano?: string | number;
  attributes?: JsonKeyValue[];
  status?: { code?: number | string; message?: string };
}

function valueOf(value: JsonAnyValue | undefined): OtlpValue {
  if (!value) return '';
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return Number(value.doubleValue);
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.kvlistValue) return attributesOf(value.kvlistValue.values);
  return value.bytesValue ?? '';
}

function attributesOf(pairs: JsonKeyValue[] | undefined): Record<string, OtlpValue> {
  return Object.fromEntries((pairs ?? []).map((pair) => [pair.key, valueOf(pair.value)]));
}

/** An enum as a number or its proto name (`SPAN_KIND_SERVER`) → its short name. */
function enumOf<T extends string>(names: T[], value: number | string | undefined, prefix: string) {
  if (typeof value === 'string') return (value.replace(prefix, '') as T) || names[0]!;
  return names[value ?? 0] ?? names[0]!;
}

/** The spans of an OTLP/JSON request (or a decoded protobuf one in the same shape). */
function spansOf(request: JsonRequest, receivedAtMs: number): OtlpSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    const serviceName = resource['service.name'];
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span): OtlpSpan => ({
        traceId: span.traceId.toLowerCase(),
        spanId: span.spanId.toLowerCase(),
        ...(span.parentSpanId ? { parentSpanId: span.parentSpanId.toLowerCase() } : {}),
        name: span.name,
        kind: enumOf(kinds, span.kind, 'SPAN_KIND_'),
        startTimeUnixNano: BigInt(span.startTimeUnixNano ?? 0),
        endTimeUnixNano: BigInt(span.endTimeUnixNano ?? 0),
        ...(typeof serviceName === 'string' ? { serviceName } : {}),
        resource,
        attributes: attributesOf(span.attributes),
        status: {
          code: enumOf(statusCodes, span.status?.code, 'STATUS_CODE_'),
          ...(span.status?.message ? { message: span.status.message } : {}),
        },
        receivedAtMs,
      })),
    );
  });
}

/** A protobuf ExportTraceServiceRequest in OTLP/JSON's shape: ids as hex, int64 as strings. */
function decodeProtobuf(body: Buffer): JsonRequest {
  const object = exportRequest.toObject(exportRequest.decode(body), {
    longs: String,
    enums: Number,
    bytes: Array,
  });
  const hex = (bytes: unknown) =>
    Array.isArray(bytes) && bytes.length > 0 ? Buffer.from(bytes).toString('hex') : undefined;
  for (const resourceSpans of (object as JsonRequest).resourceSpans ?? [])
    for (const scope of resourceSpans.scopeSpans ?? [])
      for (const span of scope.spans ?? []) {
        const ids = span as unknown as Record<string, unknown>;
        ids.traceId = hex(ids.traceId) ?? '';
        ids.spanId = hex(ids.spanId) ?? '';
        ids.parentSpanId = hex(ids.parentSpanId);
      }
  return object as JsonRequest;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}

/**
 * Starts a receiver.
 * @param port default 0 (any free port)
 * @returns the running receiver; it answers 200 with an empty ExportTraceServiceResponse in
 *   the request's encoding, 404 off `POST /v1/traces`, 415 for another content type and
 *   400 for a body that does not decode
 */
export async function startOtlpReceiver(port = 0): Promise<OtlpReceiver> {
  const spans: OtlpSpan[] = [];
  const requests = new Map<string, number>();
  const server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim();
      requests.set(type, (requests.get(type) ?? 0) + 1);
      try {
        if (type === 'application/x-protobuf') {
          spans.push(...spansOf(decodeProtobuf(body), Date.now()));
          const answer = exportResponse.encode(exportResponse.create({})).finish();
          response.writeHead(200, { 'content-type': type }).end(Buffer.from(answer));
        } else if (type === 'application/json') {
          spans.push(...spansOf(JSON.parse(body.toString('utf8')) as JsonRequest, Date.now()));
          response.writeHead(200, { 'content-type': type }).end('{}');
        } else response.writeHead(415).end();
      } catch {
        response.writeHead(400).end();
      }
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  const endpoint = `http://127.0.0.1:${bound}`;
  return {
    endpoint,
    tracesUrl: `${endpoint}/v1/traces`,
    spans,
    requests,
    waitForTrace: (traceId, complete, timeoutMs = 30_000) =>
      waitForTraceIn(
        spans,
        (span) => `${span.serviceName} ${span.kind} ${span.name}`,
        traceId,
        complete,
        timeoutMs,
      ),
    close: () => closeServer(server),
  };
}
