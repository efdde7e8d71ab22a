/**
 * The Zipkin span receiver of the bench's own runs (`BENCH_TRACE=1`;
 * test-support's receiver on a bench port): the apps' existing tracing
 * (services/shared/service-kit tracing.ts, the `zipkin` exporter) posts their spans there,
 * so the live figure can put one PATCH's hops on one timeline without any
 * app code of its own. Zipkin v2 times are µs since the epoch; OpenTelemetry
 * takes a span's start from `Date.now()` (ms) and its duration from the
 * monotonic clock, so the hops between two spans are good to about 1 ms.
 */
import { startZipkinReceiver, type ZipkinSpan } from '@raly/test-support/zipkin';
import { benchPort } from './ports';

export type { ZipkinSpan };

export interface TraceCollector {
  /** Where the apps post (`OTEL_EXPORTER_ZIPKIN_ENDPOINT`). */
  url: string;
  /** Spans received since the last take (and forgets them). */
  take(): ZipkinSpan[];
  close(): Promise<void>;
}

/** Starts the receiver on a bench port (BENCH_PORTS). */
export async function startTraceCollector(): Promise<TraceCollector> {
  const receiver = await startZipkinReceiver(await benchPort());
  return {
    url: receiver.endpoint,
    take: () => receiver.spans.splice(0),
    close: () => receiver.close(),
  };
}

/**
 * The apps' tracing variables that send spans to `collector` only for
 * requests whose `traceparent` is sampled (the bench's own PATCHes): the root
 * sampler is off, so probes and the apps' own background work make no span.
 * @param scheduleDelayMs how often the apps export finished spans
 */
export function tracingEnvironment(
  collector: Pick<TraceCollector, 'url'>,
  scheduleDelayMs = 500,
): Record<string, string> {
  return {
    OTEL_TRACES_EXPORTER: 'zipkin',
    OTEL_EXPORTER_ZIPKIN_ENDPOINT: collector.url,
    OTEL_TRACES_SAMPLER: 'parentbased_always_off',
    OTEL_BSP_SCHEDULE_DELAY: String(scheduleDelayMs),
  };
}
