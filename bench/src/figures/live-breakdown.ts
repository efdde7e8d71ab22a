/**
 * Where the live path's time goes, hop by hop (`BENCH_TRACE=1`):
 * each update the bench sends carries a sampled W3C `traceparent`, the BFF
 * and identity-profile export their spans of it (their existing tracing,
 * ../trace-collector), and every tab's receipt is matched to them, so one
 * update's timeline reads: sent by the bench → the BFF's server span starts
 * → its call to identity-profile (identity's server span inside) → the Redis
 * apply (the gap up to the emit span) → the `socket emit user` span → each
 * tab's receipt in the bench's socket workers. All clocks are
 * `performance.timeOrigin + performance.now()` of processes on one machine.
 */
import type { ZipkinSpan } from '../trace-collector';
import { percentile } from '../stats';

/** One update the bench sent: its value, trace and times (epoch ms). */
export interface SentUpdate {
  value: string;
  traceId: string;
  sentAt: number;
  /** When its HTTP answer was read (undefined: failed). */
  answeredAt?: number;
}

/** One segment's statistics over the samples that have it (ms). */
export interface HopFigures {
  hop: string;
  samples: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Its mean over the slowest 1 % of arrivals (end to end): what the tail is made of. */
  meanInTail: number;
}

export interface LiveBreakdown {
  /** Updates whose spans were all found, and arrivals matched to them. */
  updatesTraced: number;
  arrivalsTraced: number;
  /** End-to-end p99 over the traced arrivals and how many arrivals its tail holds. */
  endToEndP99: number;
  tailArrivals: number;
  hops: HopFigures[];
}

const us = (value: number) => value / 1000;
const startOf = (span: ZipkinSpan) => us(span.timestamp);
const endOf = (span: ZipkinSpan) => us(span.timestamp + span.duration);
const serviceOf = (span: ZipkinSpan) => span.localEndpoint?.serviceName ?? '';

/** The spans of one update's trace the breakdown reads; any may be missing. */
function spansOf(spans: ZipkinSpan[]) {
  const bff = spans.filter((span) => serviceOf(span).includes('bff'));
  const identity = spans.filter((span) => serviceOf(span).includes('identity'));
  return {
    bffServer: bff.find((span) => span.kind === 'SERVER'),
    bffClient: bff.find((span) => span.kind === 'CLIENT' && /patch/i.test(span.name)),
    identityServer: identity.find((span) => span.kind === 'SERVER' && /patch/i.test(span.name)),
    emit: bff.find((span) => span.name.startsWith('socket emit')),
  };
}

/**
 * The segments of one update, in path order (ms), for the update's path.
 * @returns undefined when a span the path needs is missing
 */
function segmentsOf(
  update: SentUpdate,
  spans: ReturnType<typeof spansOf>,
  via: 'bff' | 'service',
): [string, number][] | undefined {
  const { bffServer, bffClient, identityServer, emit } = spans;
  if (!identityServer || !emit) return undefined;
  if (via === 'service')
    return [
      ['bench send → identity server span starts', startOf(identityServer) - update.sentAt],
      ['identity-profile handles PATCH /users/me', us(identityServer.duration)],
      [
        'identity answered → BFF emit (outbox, relay, Kafka, projector)',
        startOf(emit) - endOf(identityServer),
      ],
      ['socket emit span (rooms + emit)', us(emit.duration)],
    ];
  if (!bffServer || !bffClient) return undefined;
  return [
    ['bench send → BFF server span starts', startOf(bffServer) - update.sentAt],
    ['BFF before its call (auth, body, checks)', startOf(bffClient) - startOf(bffServer)],
    ['BFF call → identity server span starts', startOf(identityServer) - startOf(bffClient)],
    ['identity-profile handles PATCH /users/me', us(identityServer.duration)],
    ['identity answered → BFF call returns', endOf(bffClient) - endOf(identityServer)],
    ['BFF call returned → emit starts (Redis apply)', startOf(emit) - endOf(bffClient)],
    ['socket emit span (rooms + emit)', us(emit.duration)],
  ];
}

/**
 * Matches the updates, their spans and the tabs' arrivals, and sums up each hop.
 * @param arrivals `[value, epoch ms]` per tab that received the update
 */
export function liveBreakdown(
  updates: SentUpdate[],
  spans: ZipkinSpan[],
  arrivals: [string, number][],
  via: 'bff' | 'service',
): LiveBreakdown {
  const byTrace = new Map<string, ZipkinSpan[]>();
  for (const span of spans) {
    const list = byTrace.get(span.traceId) ?? [];
    list.push(span);
    byTrace.set(span.traceId, list);
  }
  const arrivalsOf = new Map<string, number[]>();
  for (const [value, at] of arrivals) {
    const list = arrivalsOf.get(value) ?? [];
    list.push(at);
    arrivalsOf.set(value, list);
  }
  // One row per arrival: its segments (the update's, then its own last hop) and end to end.
  const rows: { segments: [string, number][]; endToEnd: number }[] = [];
  let updatesTraced = 0;
  for (const update of updates) {
    const traced = spansOf(byTrace.get(update.traceId) ?? []);
    const segments = segmentsOf(update, traced, via);
    const tabs = arrivalsOf.get(update.value);
    if (!segments || !traced.emit || !tabs) continue;
    updatesTraced += 1;
    const emitted = endOf(traced.emit);
    const first = Math.min(...tabs);
    for (const at of tabs)
      rows.push({
        segments: [
          ...segments,
          ['emit ends → first tab of the update receives', first - emitted],
          ['first tab → this tab receives (same worker)', at - first],
        ],
        endToEnd: at - update.sentAt,
      });
  }
  const endToEnd = rows.map((row) => row.endToEnd);
  const p99 = percentile(endToEnd, 99);
  const tail = rows.filter((row) => row.endToEnd >= p99);
  const hops = (rows[0]?.segments ?? []).map(([hop], index): HopFigures => {
    const values = rows.map((row) => row.segments[index]![1]);
    const inTail = tail.map((row) => row.segments[index]![1]);
    return {
      hop,
      samples: values.length,
      p50: percentile(values, 50),
      p90: percentile(values, 90),
      p99: percentile(values, 99),
      max: Math.max(...values),
      meanInTail: inTail.reduce((sum, value) => sum + value, 0) / Math.max(1, inTail.length),
    };
  });
  hops.push({
    hop: 'end to end (bench send → tab receives)',
    samples: endToEnd.length,
    p50: percentile(endToEnd, 50),
    p90: percentile(endToEnd, 90),
    p99,
    max: Math.max(...endToEnd),
    meanInTail: tail.reduce((sum, row) => sum + row.endToEnd, 0) / Math.max(1, tail.length),
  });
  return {
    updatesTraced,
    arrivalsTraced: rows.length,
    endToEndP99: p99,
    tailArrivals: tail.length,
    hops,
  };
}

/** The breakdown as a printable table (ms). */
export function formatBreakdown(title: string, breakdown: LiveBreakdown): string {
  const cell = (value: number) => value.toFixed(1);
  return [
    `${title}: ${breakdown.updatesTraced} updates, ${breakdown.arrivalsTraced} arrivals traced; tail = the ${breakdown.tailArrivals} arrivals at or above the end-to-end p99 (${cell(breakdown.endToEndP99)} ms)`,
    '| hop | p50 | p90 | p99 | max | mean in the tail |',
    '|---|---|---|---|---|---|',
    ...breakdown.hops.map(
      (hop) =>
        `| ${hop.hop} | ${cell(hop.p50)} | ${cell(hop.p90)} | ${cell(hop.p99)} | ${cell(hop.max)} | ${cell(hop.meanInTail)} |`,
    ),
  ].join('\n');
}
