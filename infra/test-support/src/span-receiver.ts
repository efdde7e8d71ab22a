/**
 * What the test span receivers (./otlp, ./zipkin) share: waiting for a
 * trace's spans, and closing the server.
 */
import type { Server } from 'node:http';
import { eventually } from '@raly/test-stack';

/**
 * The spans of one trace once `complete` accepts them, polled every 100 ms.
 * @param spans every span received so far (growing)
 * @param describe one span as the failure message lists it (`service KIND name`)
 * @throws when the trace is not complete within `timeoutMs` (the message lists the spans received)
 */
export async function waitForTraceIn<T extends { traceId: string }>(
  spans: T[],
  describe: (span: T) => string,
  traceId: string,
  complete: (spans: T[]) => boolean,
  timeoutMs: number,
): Promise<T[]> {
  const ofTrace = () => spans.filter((span) => span.traceId === traceId);
  try {
    return await eventually(`trace ${traceId}`, () => complete(ofTrace()) && ofTrace(), {
      timeoutMs,
      intervalMs: 100,
    });
  } catch (error) {
    const received = ofTrace().map(describe);
    throw new Error(`${(error as Error).message}; received: ${received.join(' | ')}`, {
      cause: error,
    });
  }
}

/** Stops `server` and drops its open connections. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
