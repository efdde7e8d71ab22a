/**
 * socket.io on path `/live` (docs/api.md): live pushes of user, brand, offer
 * and application records. The handshake must carry a valid access token;
 * the server — never the client — decides the rooms: `user:<sub>`,
 * `session:<sid>` (the token's Keycloak session), for a brand user
 * `brand:<brandId>`, and for an onboarded creator with offer notifications on
 * `interest:<Interest>` per interest (issue 9; docs/architecture.md "Offer
 * routing"). There is no join handler. Replicas share rooms through the Redis adapter, so a
 * push from any replica reaches every socket, and so does a disconnect: when
 * a session ends (logout, password reset, e-mail change), its sockets on
 * every replica are closed at once (docs/api.md "Ending sessions").
 */
import { createAdapter } from '@socket.io/redis-adapter';
import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { Server } from 'socket.io';
import type { Authenticator } from '../auth/keycloak';
import type { Config } from '../config';
import { INTERESTS, type Interest } from '@raly/contracts/constants';
import {
  LIVE_PATH,
  liveEvents,
  liveHandshakeRefusals,
  type LiveHandshakeRefusalData,
  type LiveServerToClientEvents,
} from '@raly/contracts/live';
import { isBrandUser, isOnboarded, type UserRecord } from '@raly/contracts/records';
import type { AggregateKind, RecordByKind } from '../data-access/read-model';
import { findBrand, findMyUser, type MeDependencies } from '../domain/me';
import type { LivePush } from '../domain/record-store';
import type { LiveMetrics } from '../observability/live-metrics';
import { handshakeTokenOf, type Caller } from '@raly/service-kit/auth';
import { AppError, handleError } from '@raly/service-kit/errors';
import type { Logger } from '@raly/service-kit/logger';
import { inSpan } from '@raly/service-kit/tracing';

export const userRoom = (userId: string): string => `user:${userId}`;
export const brandRoom = (brandId: string): string => `brand:${brandId}`;
export const sessionRoom = (sessionId: string): string => `session:${sessionId}`;
/** The room of the creators who want live offers of one interest (issue 9). */
export const interestRoom = (interest: Interest): string => `interest:${interest}`;

/** Every interest room, so a user's sockets can leave those they no longer belong in. */
const ALL_INTEREST_ROOMS: readonly string[] = INTERESTS.map(interestRoom);

/**
 * The interest rooms a user's sockets belong in: one per interest of an
 * onboarded creator (no brand) whose offer notifications are on; none otherwise.
 */
export function interestRoomsOf(
  user: Pick<UserRecord, 'brand' | 'onboarding' | 'notifications' | 'interests'>,
): string[] {
  if (isBrandUser(user) || !isOnboarded(user) || !user.notifications.offers) return [];
  return user.interests.map(interestRoom);
}

/**
 * The rooms a user record puts its sockets in beyond their own and their
 * session's: the brand's room for a brand user, else its interest rooms.
 */
const recordRoomsOf = (user: UserRecord): string[] =>
  user.brand?.id ? [brandRoom(user.brand.id), ...interestRoomsOf(user)] : interestRoomsOf(user);

/** How many users' last room moves a replica remembers (issue 10: a push that moves nothing publishes no move). */
const REMEMBERED_ROOM_MOVES = 10_000;

/** How often a replica closes the sockets whose access token expired (ms): a socket outlives its token by less. */
export const EXPIRY_SWEEP_MS = 1000;

/**
 * The sockets whose caller's access token has expired by `nowMs` (epoch ms).
 * @param sockets a replica's sockets (socket.io's `io.of('/').sockets.values()`)
 */
export function* expiredSockets<S extends { data: { caller?: Pick<Caller, 'expiresAtMs'> } }>(
  sockets: Iterable<S>,
  nowMs: number,
): Generator<S> {
  for (const socket of sockets) {
    const expiresAtMs = socket.data.caller?.expiresAtMs;
    if (expiresAtMs !== undefined && expiresAtMs <= nowMs) yield socket;
  }
}

/**
 * Empties the HTTP request of a completed WebSocket upgrade, which engine.io
 * keeps reachable until the TCP socket closes but never reads again: its
 * headers, raw headers, URL, parsed query, ws socket and Node's header
 * caches (kHeaders, …; its `headers` getter then yields `{}`). The object and
 * its stream state stay, so an event on it still finds its emitter fields.
 * Anything not an object is left as it is.
 */
export function releaseUpgradeRequest(request: unknown): void {
  if (typeof request !== 'object' || request === null) return;
  // Overwritten, not deleted: a deleted property turns the object into a dictionary, which
  // costs more than the fields it held.
  const fields = [...RELEASED_REQUEST_FIELDS, ...Object.getOwnPropertySymbols(request)];
  for (const key of fields) if (Object.hasOwn(request, key)) Reflect.set(request, key, undefined);
}

/** What engine.io adds to an upgrade request: its parsed query and, once upgraded, the ws socket. */
interface UpgradeFields {
  _query?: { sid?: string };
  websocket?: unknown;
}

/** The data an upgrade request holds: headers, URL, the query and ws socket engine.io adds. */
const RELEASED_REQUEST_FIELDS = ['rawHeaders', 'rawTrailers', 'url', '_query', 'websocket'];

export interface LiveServer extends LivePush {
  /**
   * Sends every socket of this replica its user's (and brand's) current
   * snapshots again, as on connection: after the Redis adapter's subscriber
   * reconnected, pushes other replicas published while it was away never
   * arrived. Resolves when all were sent (errors are logged, not thrown).
   */
  catchUpAll(): Promise<void>;
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
}

interface SocketData {
  caller: Caller;
  rooms: string[];
  /** The user's brand, when they are a brand user. */
  brandId?: string;
}

/**
 * The rooms a user's sockets belong in: their own, their session's, plus
 * their brand's (brand users) or their interests' (creators who want live offers).
 */
async function roomsOf(
  me: MeDependencies,
  caller: Caller,
  logger: Logger,
): Promise<{ rooms: string[]; brandId?: string }> {
  const rooms = [userRoom(caller.userId)];
  if (caller.sessionId) rooms.push(sessionRoom(caller.sessionId));
  try {
    const record = await findMyUser(me, caller);
    const brandId = record?.brand?.id;
    if (brandId) return { rooms: [...rooms, brandRoom(brandId)], brandId };
    if (record) return { rooms: [...rooms, ...interestRoomsOf(record)] };
  } catch (error) {
    // Identity down: the socket still gets its own pushes; the brand and
    // interest rooms are joined when the next user snapshot is pushed (push).
    handleError(error, logger, { socket: 'brand room lookup', userId: caller.userId });
  }
  return { rooms };
}

/**
 * The `connect_error` of a refused handshake (docs/api.md "socket.io"): the
 * token or its session refused → `unauthenticated`, not retryable; anything
 * else (the session check's Redis away, identity-profile unreachable, a bug)
 * → `unavailable` with `data.retryable`, so clients try again with back-off —
 * socket.io never retries a middleware refusal on its own.
 * @param error what the token check or the room lookup threw
 */
export function handshakeRefusal(error: unknown): Error & { data: LiveHandshakeRefusalData } {
  const refused =
    error instanceof AppError &&
    (error.code === 'unauthenticated' || error.code === 'permission-denied');
  return Object.assign(
    new Error(refused ? liveHandshakeRefusals.unauthenticated : liveHandshakeRefusals.unavailable),
    { data: { retryable: !refused } },
  );
}

/**
 * The adapter's publishing client, whose failed publishes are logged: the
 * Redis adapter publishes without handling the promise, so a publish cut off
 * by a Redis restart was an unhandled rejection, which ends a Node process.
 * A push lost that way reaches the other replicas' sockets through their
 * catch-up once their subscriber is back ({@link LiveServer.catchUpAll}).
 */
function publishingSafely(redis: Redis, logger: Logger): Redis {
  return new Proxy(redis, {
    get(target, property) {
      if (property === 'publish')
        return (...args: Parameters<Redis['publish']>) =>
          target.publish(...args).catch((error: unknown) => {
            logger.warn({ err: error }, 'live: publish to the other replicas failed');
            return 0;
          });
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Attaches socket.io to the HTTP server. */
export function createLiveServer(options: LiveServerOptions): LiveServer {
  const { config, authenticator, me, logger } = options;
  const io = new Server<
    Record<string, never>,
    LiveServerToClientEvents,
    Record<string, never>,
    SocketData
  >(options.httpServer, {
    path: LIVE_PATH,
    cors: { origin: config.CORS_ORIGIN, credentials: true },
    adapter: createAdapter(
      publishingSafely(options.redisPublisher, logger),
      options.redisSubscriber,
      {
        key: config.LIVE_ADAPTER_KEY,
      },
    ),
  });

  options.metrics?.countSockets(() => io.of('/').sockets.size);

  // Memory per idle socket (issue 10): engine.io keeps the HTTP request of a WebSocket upgrade for
  // the socket's whole life (on its connection, and in closures of its upgrade handling that live
  // until the TCP socket closes), and nothing reads it once the socket is open: socket.io's handshake
  // then has no headers, only `auth`. Its contents are released once engine.io is
  // done with it. A new WebSocket connection: when it is announced (its handshake awaits an id
  // first). The upgrade of a polling connection (the web app's way): engine.io announces the upgrade's
  // response headers, then hands the request to its synchronous upgrade handling, which sets
  // `request.websocket`; a microtask queued at the announcement runs once that handling returned.
  io.engine.on('connection', (connection: { request: unknown; transport: { name: string } }) => {
    if (connection.transport.name === 'websocket') releaseUpgradeRequest(connection.request);
    connection.request = null;
  });
  io.engine.on('headers', (_headers: unknown, request: UpgradeFields) => {
    if (request._query?.sid)
      queueMicrotask(() => {
        if (request.websocket) releaseUpgradeRequest(request);
      });
  });

  io.use((socket, next) => {
    const token = handshakeTokenOf(socket.handshake);
    // Kept once, on the verified caller (shared by every socket of the token), not per socket;
    // nothing reads the upgrade's headers or query after the handshake either (memory per
    // idle socket, issue 10: about 1 KB each).
    socket.handshake.auth = {};
    socket.handshake.headers = {};
    socket.handshake.query = {};
    authenticator
      .verify(token)
      .then(async (caller) => {
        socket.data.caller = caller;
        Object.assign(socket.data, await roomsOf(me, caller, logger));
        next();
      })
      .catch((error: unknown) => {
        handleError(error, logger, { socket: 'handshake' });
        next(handshakeRefusal(error));
      });
  });

  type LiveSocket = Parameters<Parameters<typeof io.on<'connection'>>[1]>[0];

  /**
   * Catch-up (docs/adr/0007): a change stored between the client's GET
   * /api/me and the socket's join was pushed before the socket was in its
   * rooms, so the socket gets the current snapshots once; the client keeps the
   * higher version. Read through the read model with the services behind it
   * (a Redis restart may have lost them).
   */
  const catchUp = async (socket: LiveSocket): Promise<void> => {
    const { caller, brandId } = socket.data;
    try {
      const [userRecord, brandRecord] = await Promise.all([
        findMyUser(me, caller),
        brandId ? findBrand(me, brandId, caller.accessToken) : null,
      ]);
      if (userRecord) {
        // A newer record stored since the handshake read it may have moved the rooms
        // before this socket was in them: its brand and interest rooms follow the current record.
        const wanted = recordRoomsOf(userRecord);
        for (const room of ALL_INTEREST_ROOMS) if (!wanted.includes(room)) void socket.leave(room);
        void socket.join(wanted);
        socket.emit(liveEvents.user, userRecord);
      }
      if (brandRecord) socket.emit(liveEvents.brand, brandRecord);
    } catch (error) {
      handleError(error, logger, { socket: 'catch-up', userId: caller.userId });
    }
  };

  io.on('connection', (socket) => {
    void socket.join(socket.data.rooms);
    // Only needed for the join: not kept for the socket's life (memory per idle socket, issue 10).
    socket.data.rooms = [];
    void catchUp(socket);
  });

  // A socket lives no longer than its token (the client reconnects with a fresh one): one sweep a
  // second over this replica's sockets rather than a timer per socket (memory per idle socket).
  const expirySweep = setInterval(() => {
    for (const socket of expiredSockets(io.of('/').sockets.values(), Date.now()))
      socket.disconnect(true);
  }, EXPIRY_SWEEP_MS);
  expirySweep.unref();

  // Sockets of an ended session close now, on every replica (the Redis adapter relays it).
  authenticator.revocations.onRevoked((revocation) => {
    if (revocation.kind === 'session') {
      io.in(sessionRoom(revocation.sessionId)).disconnectSockets(true);
    } else if (revocation.keepSessionId) {
      io.in(userRoom(revocation.userId))
        .except(sessionRoom(revocation.keepSessionId))
        .disconnectSockets(true);
    } else {
      io.in(userRoom(revocation.userId)).disconnectSockets(true);
    }
  });

  /**
   * Moves a user's sockets between rooms on every replica. The Redis adapter
   * only publishes a join or leave (every replica, this one included, applies
   * it when it comes back from Redis), so it is also applied here at once:
   * the push emitted next then finds this replica's sockets moved, and other
   * replicas get the request ahead of that push (one Redis connection, in order).
   * @param join rooms to join; @param leave rooms to leave (disjoint from `join`)
   */
  const moveRooms = (userId: string, { join, leave }: { join: string[]; leave: string[] }) => {
    for (const sockets of [io.local.in(userRoom(userId)), io.in(userRoom(userId))]) {
      if (leave.length > 0) sockets.socketsLeave(leave);
      if (join.length > 0) sockets.socketsJoin(join);
    }
  };

  /**
   * Per user, the version of the last user snapshot this replica pushed and
   * the rooms it moved the user's sockets to ({@link recordRoomsOf}, joined by spaces). The next
   * version (exactly one higher) with the same rooms needs no move: every
   * replica applied that move, no other version came between (a version is
   * pushed by the one replica whose version-checked write stored it, and a
   * later one cannot be stored first), and sockets that connected since took
   * their rooms from a record at least as new (handshake, catch-up). A gap in
   * versions, other rooms, or a forgotten user: the move is published as before.
   */
  const movedRooms = new LRUCache<string, { version: number; rooms: string }>({
    max: REMEMBERED_ROOM_MOVES,
  });

  /**
   * One emit per snapshot, to the rooms of whoever may see it: socket.io
   * (and the Redis adapter, once per replica) sends it once to each socket
   * in any of the rooms. Nothing here depends on how many users there are.
   */
  const pushers: { [K in AggregateKind]: (record: RecordByKind[K]) => void } = {
    user(user) {
      // A user who just became a brand user starts receiving their brand's pushes; interest
      // rooms follow the record (interests, notifications.offers, onboarding): the ones no
      // longer wanted are left, the current ones joined.
      const wanted = recordRoomsOf(user);
      const rooms = wanted.join(' ');
      const moved = movedRooms.get(user.id);
      if (!moved || moved.version !== user.version - 1 || moved.rooms !== rooms)
        moveRooms(user.id, {
          join: wanted,
          leave: ALL_INTEREST_ROOMS.filter((room) => !wanted.includes(room)),
        });
      movedRooms.set(user.id, { version: user.version, rooms });
      io.to(userRoom(user.id)).emit(liveEvents.user, user);
    },
    brand(brand) {
      io.to(brandRoom(brand.id)).emit(liveEvents.brand, brand);
    },
    offer(offer) {
      // A draft is its brand's business only; an open or closed offer also reaches the
      // creators of its interests (closed: so their feeds drop it live).
      const rooms = [brandRoom(offer.brandId)];
      if (offer.status !== 'draft') rooms.push(...offer.interests.map(interestRoom));
      io.to(rooms).emit(liveEvents.offer, offer);
    },
    application(application) {
      io.to([userRoom(application.creatorId), brandRoom(application.brandId)]).emit(
        liveEvents.application,
        application,
      );
    },
  };

  return {
    async catchUpAll() {
      const sockets = [...io.of('/').sockets.values()];
      // A few at a time: each may ask a service when the read model lost its record.
      for (let start = 0; start < sockets.length; start += 64)
        await Promise.all(sockets.slice(start, start + 64).map(catchUp));
    },
    push<K extends AggregateKind>(kind: K, record: RecordByKind[K]) {
      // A span in the trace of the request or Kafka message that brought the snapshot (when traced).
      inSpan(`socket emit ${kind}`, { 'raly.record.kind': kind, 'raly.record.id': record.id }, () =>
        pushers[kind](record),
      );
      options.metrics?.pushed(kind);
    },
    /** Closes every socket (their clients see the transport close and reconnect) and the server. */
    async close() {
      clearInterval(expirySweep);
      await io.close();
    },
  };
}
