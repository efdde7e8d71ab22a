/**
 * What an app's own `/metrics` (prom-client's default Node metrics, services/shared/service-kit
 * metrics.ts) says about a window of a benchmark: its event-loop delay and its
 * garbage collection. prom-client's event-loop histogram restarts at every
 * scrape, so a scrape before a window and one after it give that window's delay.
 */
import { metricValue, scrapeMetrics, type Sample } from '@raly/test-support';
import type { LoopDelay } from './stats';

/** One scrape's figures. */
export interface AppScrape {
  /** Event-loop delay since the previous scrape (ms beyond prom-client's 10 ms sampling interval). */
  loopDelay: LoopDelay;
  /** Garbage collection so far, by kind (`minor`, `major`, `incremental`, `weakcb`): count and total ms. */
  gc: Record<string, { count: number; ms: number }>;
}

/** GC figures of a window: total pauses and their time, by kind. */
export type GcWindow = AppScrape['gc'];

/** prom-client's default `eventLoopMonitoringPrecision` (ms), which its delay figures include. */
const SAMPLING_MS = 10;

/** A loop-delay gauge in ms beyond the sampling interval (NaN when the app has none). */
const lateMs = (samples: Sample[], name: string): number => {
  const seconds = metricValue(samples, name);
  return seconds === undefined ? NaN : Math.max(0, seconds * 1000 - SAMPLING_MS);
};

/**
 * Scrapes `<url>/metrics`.
 * @throws AssertionError when the app does not answer 200 in the Prometheus text format
 */
export async function scrapeApp(url: string): Promise<AppScrape> {
  const { samples } = await scrapeMetrics(url);
  const gc: GcWindow = {};
  for (const sample of samples) {
    const kind = sample.labels.kind;
    if (!kind || !/^nodejs_gc_duration_seconds_(sum|count)$/.test(sample.name)) continue;
    const entry = (gc[kind] ??= { count: 0, ms: 0 });
    if (sample.name.endsWith('_sum')) entry.ms = sample.value * 1000;
    else entry.count = sample.value;
  }
  return {
    loopDelay: {
      p50: lateMs(samples, 'nodejs_eventloop_lag_p50_seconds'),
      p99: lateMs(samples, 'nodejs_eventloop_lag_p99_seconds'),
      max: lateMs(samples, 'nodejs_eventloop_lag_max_seconds'),
    },
    gc,
  };
}

/** The GC between two scrapes, by kind. */
export function gcBetween(before: AppScrape, after: AppScrape): GcWindow {
  return Object.fromEntries(
    Object.entries(after.gc).map(([kind, { count, ms }]) => [
      kind,
      {
        count: count - (before.gc[kind]?.count ?? 0),
        ms: Math.round((ms - (before.gc[kind]?.ms ?? 0)) * 10) / 10,
      },
    ]),
  );
}

/** A process's memory as its `/metrics` reports it (prom-client's default metrics), MiB. */
export interface HeapFigures {
  /** V8 heap in use (live objects and garbage not yet collected). */
  heapUsedMiB: number;
  /** V8 heap reserved (what the heap holds of the RSS). */
  heapTotalMiB: number;
  /** Memory of C++ objects bound to JS ones (buffers, sockets' native parts). */
  externalMiB: number;
}

/**
 * Scrapes `<url>/metrics` for the heap figures.
 * @throws AssertionError when the app does not answer 200 in the Prometheus text format
 */
export async function heapOf(url: string): Promise<HeapFigures> {
  const { samples } = await scrapeMetrics(url);
  const mibOf = (name: string) =>
    Math.round(((metricValue(samples, name) ?? NaN) / 1024 / 1024) * 10) / 10;
  return {
    heapUsedMiB: mibOf('nodejs_heap_size_used_bytes'),
    heapTotalMiB: mibOf('nodejs_heap_size_total_bytes'),
    externalMiB: mibOf('nodejs_external_memory_bytes'),
  };
}
