/**
 * socket.io on path `/live` (docs/api.md): live pushes of user and brand
 * records. The handshake must carry a valid access token; the server — never
 * the client — decides the rooms: `user:<sub>`, `session:<sid>` (the
 * token's Keycloak session) and, for a brand user, `brand:<brandId>`. There
 * is no join handler. Replicas share rooms through the Redis adapter, so a
 * push from any replica reaches every socket, and so does a disconnect: when
 * a session ends (logout, password reset, e-mail change), its sockets on
 * every replica are closed at once (docs/api.md "Ending sessions").
 */
import { createAdapter } from '@socket.io/redis-adapter';
import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import { Server } from 'socket.io';
import type { Authenticator } from '../auth/keycloak';
import type { Config } from '../config';
import { LIVE_PATH, liveEvents, type LiveServerToClientEvents } from '@raly/contracts/live';
import type { AggregateKind, RecordByKind } from '../data-access/read-model';
import { findMyUser, type MeDependencies } from '../domain/me';
import type { LivePush } from '../domain/record-store';
import { handshakeTokenOf, type Caller } from '@raly/service-kit/auth';
import { handleError } from '@raly/service-kit/errors';
import type { Logger } from '@raly/service-kit/logger';

export const userRoom = (userId: string): string => `user:${userId}`;
export const brandRoom = (brandId: string): string => `brand:${brandId}`;
export const sessionRoom = (sessionId: string): string => `session:${sessionId}`;

/** setTimeout's largest delay (~24.8 days), in milliseconds. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface LiveServer extends LivePush {
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
}

interface SocketData {
  caller: Caller;
  rooms: string[];
  /** The user's brand, when they are a brand user. */
  brandId?: string;
}

/** The rooms a user's sockets belong in: their own, their session's, plus their brand's. */
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
  } catch (error) {
    // Identity down: the socket still gets its own pushes; the brand room
    // is joined when the next user snapshot is pushed (push).
    handleError(error, logger, { socket: 'brand room lookup', userId: caller.userId });
  }
  return { rooms };
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
    adapter: createAdapter(options.redisPublisher, options.redisSubscriber),
  });

  io.use((socket, next) => {
    authenticator
      .verify(handshakeTokenOf(socket.handshake))
      .then(async (caller) => {
        socket.data.caller = caller;
        Object.assign(socket.data, await roomsOf(me, caller, logger));
        next();
      })
      .catch((error: unknown) => {
        handleError(error, logger, { socket: 'handshake' });
        next(new Error('unauthenticated'));
      });
  });

  io.on('connection', (socket) => {
    const { caller, rooms, brandId } = socket.data;
    void socket.join(rooms);
    // Catch-up (docs/adr/0007): a change stored between the client's GET
    // /api/me and this join was pushed before the socket was in its rooms, so
    // the socket gets the current snapshots once; the client keeps the higher version.
    Promise.all([
      me.records.get('user', caller.userId),
      brandId && me.records.get('brand', brandId),
    ])
      .then(([userRecord, brandRecord]) => {
        if (userRecord) socket.emit(liveEvents.user, userRecord);
        if (brandRecord) socket.emit(liveEvents.brand, brandRecord);
      })
      .catch((error: unknown) =>
        handleError(error, logger, { socket: 'catch-up', userId: caller.userId }),
      );
    // A socket lives no longer than its token; the client reconnects with a fresh one.
    const expiry = setTimeout(
      () => socket.disconnect(true),
      Math.min(Math.max(caller.expiresAtMs - Date.now(), 0), MAX_TIMER_MS),
    );
    socket.on('disconnect', () => clearTimeout(expiry));
  });

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

  return {
    push<K extends AggregateKind>(kind: K, record: RecordByKind[K]) {
      if (kind === 'user') {
        const user = record as RecordByKind['user'];
        // A user who just became a brand user starts receiving their brand's pushes.
        if (user.brand?.id) io.in(userRoom(user.id)).socketsJoin(brandRoom(user.brand.id));
        io.to(userRoom(user.id)).emit(liveEvents.user, user);
      } else {
        io.to(brandRoom(record.id)).emit(liveEvents.brand, record as RecordByKind['brand']);
      }
    },
    async close() {
      await io.close();
    },
  };
}
