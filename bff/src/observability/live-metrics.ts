/**
 * The BFF's own metrics (docs/operations.md "Metrics"), in its app
 * registry beside the kit's HTTP and consumer series:
 * - `raly_bff_live_sockets` (gauge): socket.io connections on this replica,
 *   read at scrape time (the HPA's per-pod metric, k8s/base/apps/bff.yaml);
 * - `raly_bff_live_pushes_total` (counter, `kind`: user, brand, offer,
 *   application, collaboration, message, report): snapshots and messages
 *   emitted to socket.io rooms (report: to the staff console's namespace);
 * - `raly_bff_live_push_delay_seconds` (histogram, `kind`): from the event's
 *   `time` (set when the service wrote its outbox row, contracts' envelope)
 *   to its emit by the projector — the delay a browser sees on the Kafka path.
 */
import type { AppMetrics } from '@raly/service-kit/metrics';
import type { AggregateKind } from '../data-access/read-model';

/** What a push carries: a record snapshot of a kind, a collaboration's message, or a report (console). */
export type LiveKind = AggregateKind | 'message' | 'report';

/** Live-push delay buckets, in seconds: 5 ms … 60 s (a replayed backlog lands in the last). */
const PUSH_DELAY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export interface LiveMetrics {
  /** Counts one snapshot emitted to its rooms. */
  pushed(kind: LiveKind): void;
  /**
   * Records the delay of a snapshot the projector pushed.
   * @param eventTime the envelope's `time` (ISO 8601); an unparseable time is ignored
   */
  pushedFromEvent(kind: LiveKind, eventTime: string): void;
  /** Reads the socket count at scrape time from `count` (the live server's). */
  countSockets(count: () => number): void;
}

/** Registers the BFF's live metrics in the app's registry. */
export function createLiveMetrics(metrics: AppMetrics): LiveMetrics {
  const pushes = metrics.counter({
    name: 'raly_bff_live_pushes_total',
    help: 'Record snapshots emitted to socket.io rooms, by kind.',
    labelNames: ['kind'] as const,
  });
  const delay = metrics.histogram({
    name: 'raly_bff_live_push_delay_seconds',
    help: 'From the event time (outbox row written) to the socket.io emit by the projector, by kind.',
    labelNames: ['kind'] as const,
    buckets: PUSH_DELAY_BUCKETS,
  });
  let sockets: () => number = () => 0;
  metrics.gauge({
    name: 'raly_bff_live_sockets',
    help: 'socket.io connections open on this replica.',
    collect() {
      this.set(sockets());
    },
  });
  return {
    pushed: (kind) => pushes.inc({ kind }),
    pushedFromEvent(kind, eventTime) {
      const writtenAt = Date.parse(eventTime);
      if (Number.isFinite(writtenAt))
        delay.observe({ kind }, Math.max(0, Date.now() - writtenAt) / 1000);
    },
    countSockets(count) {
      sockets = count;
    },
  };
}
