/**
 * socket.io on path `/live` (docs/api.md): live pushes of user, brand, offer,
 * application and collaboration records and of collaborations' messages to
 * the rooms the server decides (./rooms). Each concern has its file: the
 * handshake (./handshake), the pushes (./pushers), catch-up (./catch-up),
 * the Redis adapter shared by replicas (./redis-adapter), the memory kept
 * per idle socket (./upgrade-memory, ./expiry-sweep), ended sessions
 * (./revocation) and the presence heartbeats (./presence). The staff
 * console has its own namespace, `/console`, with its own handshake and the
 * reports' pushes (./console-live).
 */
import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { LIVE_PATH } from '@raly/contracts/live';
import type { Producer } from 'kafkajs';
import type { ReportRecord } from '@raly/contracts/reports';
import type { Logger } from '@raly/service-kit/logger';
import { inSpan } from '@raly/service-kit/tracing';
import type { Authenticator } from '../auth/keycloak';
import type { Config } from '../config';
import type { AggregateKind, RecordByKind } from '../data-access/read-model';
import type { MeDependencies } from '../domain/me';
import type { LivePush } from '../domain/record-store';
import type { LiveMetrics } from '../observability/live-metrics';
import { catchUpOf } from './catch-up';
import { openConsoleLive } from './console-live';
import { startExpirySweep } from './expiry-sweep';
import { authenticateHandshakes } from './handshake';
import type { LiveIo } from './live-io';
import { startPresenceBeacon } from './presence';
import { createPushers, type Pushers } from './pushers';
import { redisAdapter } from './redis-adapter';
import { closeRevokedSessions } from './revocation';
import { releaseUpgradeRequests } from './upgrade-memory';

export interface LiveServer extends LivePush {
  /**
   * Sends every socket of this replica its user's (and brand's) current
   * snapshots again, as on connection: after the Redis adapter's subscriber
   * reconnected, pushes other replicas published while it was away never
   * arrived. Resolves when all were sent (errors are logged, not thrown).
   */
  catchUpAll(): Promise<void>;
  /**
   * Sends a report snapshot to the staff console's moderators (./console-live), unless this
   * replica already pushed that version or a higher one.
   * @returns true when emitted
   */
  pushReport(report: ReportRecord): boolean;
  /** Closes every socket (their clients see the transport close and reconnect) and the server. */
  close(): Promise<void>;
}

export interface LiveServerOptions {
  httpServer: HttpServer;
  config: Config;
  authenticator: Authenticator;
  me: MeDependencies;
  /** Redis clients for the adapter's publish and subscribe sides (the subscriber is dedicated). */
  redisPublisher: Redis;
  redisSubscriber: Redis;
  logger: Logger;
  /** Socket count and pushes (../observability/live-metrics). */
  metrics?: LiveMetrics;
  /** The producer of the presence heartbeats (./presence); none sent without it. */
  presenceProducer?: Producer;
}

/**
 * Runs a push once the I/O callbacks of this turn of the event loop are
 * done (`setImmediate`): a command's answer, stored in the same turn, leaves
 * before its snapshot is written to every socket in the rooms (an offer
 * opened to 10,000 tabs is answered without waiting for them). Pushes keep
 * the order they were asked in (immediates run first in, first out), so a
 * newer version never leaves ahead of an older one.
 */
const afterCurrentIo = (push: () => void): void => void setImmediate(push);

/** Attaches socket.io to the HTTP server. */
export function createLiveServer(options: LiveServerOptions): LiveServer {
  const { config, authenticator, me, logger } = options;
  const io: LiveIo = new Server(options.httpServer, {
    path: LIVE_PATH,
    cors: { origin: config.CORS_ORIGIN, credentials: true },
    adapter: redisAdapter(
      options.redisPublisher,
      options.redisSubscriber,
      config.LIVE_ADAPTER_KEY,
      logger,
    ),
  });
  options.metrics?.countSockets(() => io.of('/').sockets.size);

  releaseUpgradeRequests(io);
  authenticateHandshakes(io, { authenticator, me, logger });
  const catchUp = catchUpOf(me, logger);
  const presence =
    options.presenceProducer &&
    startPresenceBeacon(io, options.presenceProducer, config.PRESENCE_HEARTBEAT_MS, logger);
  io.on('connection', (socket) => {
    presence?.seen(socket.data.caller.userId);
    void socket.join(socket.data.rooms);
    // Only needed for the join: not kept for the socket's life (memory per idle socket).
    socket.data.rooms = [];
    void catchUp(socket);
  });
  const consoleLive = openConsoleLive(io, { authenticator, logger });
  const stopExpirySweep = startExpirySweep(io, consoleLive.namespace);
  closeRevokedSessions(io, authenticator.revocations);
  const pushers = createPushers(io);
  // Indexed by kind below: the record pushes alone (with `message` beside them the index type is lost).
  const recordPushers: Pushers = pushers;

  return {
    async catchUpAll() {
      const sockets = [...io.of('/').sockets.values()];
      // A few at a time: each may ask a service when the read model lost its record.
      for (let start = 0; start < sockets.length; start += 64)
        await Promise.all(sockets.slice(start, start + 64).map(catchUp));
    },
    push<K extends AggregateKind>(kind: K, record: RecordByKind[K]) {
      afterCurrentIo(() => {
        // A span in the trace of the request or Kafka message that brought the snapshot (when
        // traced: an immediate keeps the async context it was scheduled in).
        inSpan(
          `socket emit ${kind}`,
          { 'raly.record.kind': kind, 'raly.record.id': record.id },
          () => recordPushers[kind](record),
        );
        options.metrics?.pushed(kind);
      });
    },
    pushReport(report) {
      const pushed = inSpan(
        'socket emit report',
        { 'raly.record.kind': 'report', 'raly.record.id': report.id },
        () => consoleLive.pushReport(report),
      );
      if (pushed) options.metrics?.pushed('report');
      return pushed;
    },
    pushMessage(message, parties) {
      afterCurrentIo(() => {
        inSpan(
          'socket emit message',
          { 'raly.record.kind': 'message', 'raly.record.id': message.id },
          () => pushers.message(message, parties),
        );
        options.metrics?.pushed('message');
      });
    },
    async close() {
      stopExpirySweep();
      await presence?.stop();
      await io.close();
    },
  };
}
