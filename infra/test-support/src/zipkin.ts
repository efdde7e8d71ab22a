/**
 * A Zipkin-compatible span receiver for tests: an HTTP server on loopback
 * that collects what apps export to `POST /api/v2/spans` (Zipkin's JSON v2,
 * what OTEL_EXPORTER_ZIPKIN_ENDPOINT points at), so a test can check the
 * traces of a flow without running Zipkin.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, waitForTraceIn } from './span-receiver';

/** One span as Zipkin's v2 JSON API receives it (the fields tests read). */
export interface ZipkinSpan {
  traceId: string;
  id: string;
  parentId?: string;
  name: string;
  /** Absent for an internal span. */
  kind?: 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';
  /** Start, µs since the epoch. */
  timestamp: number;
  /** µs. */
  duration: number;
  localEndpoint?: { serviceName?: string };
  tags?: Record<string, string>;
}

/** A running receiver. */
export interface ZipkinReceiver {
  /** The endpoint to export to, e.g. `http://127.0.0.1:41234/api/v2/spans`. */
  endpoint: string;
  /** Every span received so far, in arrival order. */
  spans: ZipkinSpan[];
  /**
   * The spans of one trace once `complete` accepts them.
   * @param timeoutMs default 30 000
   * @throws when the trace is not complete in time (the message lists the spans received)
   */
  waitForTrace(
    traceId: string,
    complete: (spans: ZipkinSpan[]) => boolean,
    timeoutMs?: number,
  ): Promise<ZipkinSpan[]>;
  close(): Promise<void>;
}

/**
 * Starts a receiver.
 * @param port default 0 (any free port)
 */
export async function startZipkinReceiver(port = 0): Promise<ZipkinReceiver> {
  const spans: ZipkinSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/api/v2/spans') {
        response.writeHead(404).end();
        return;
      }
      try {
        spans.push(...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ZipkinSpan[]));
        response.writeHead(202).end();
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${bound}/api/v2/spans`,
    spans,
    waitForTrace: (traceId, complete, timeoutMs = 30_000) =>
      waitForTraceIn(
        spans,
        (span) => `${span.localEndpoint?.serviceName} ${span.kind ?? 'INTERNAL'} ${span.name}`,
        traceId,
        complete,
        timeoutMs,
      ),
    close: () => closeServer(server),
  };
}
