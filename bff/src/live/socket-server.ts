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
import type { AuthenticatedUser, Authenticator } from '../auth/keycloak';
import type { Config } from '../config';
import type { AggregateKind, RecordByKind } from '../data-access/read-model';
import { findMyUser, type MeDependencies } from '../domain/me';
import type { LivePush } from '../domain/record-store';
import { handshakeTokenOf } from '@raly/service-kit/auth';
import { handleError } from '@raly/service-kit/errors';
import type { Logger } from '@raly/service-kit/logger';

export const LIVE_PATH = '/live';
export const userRoom = (userId: string): string => `user:${userId}`;
export const brandRoom = (brandId: string): string => `brand:${brandId}`;
export const sessionRoom = (sessionId: string): string => `session:${sessionId}`;
export const liveEvents = { user: 'user.updated', brand: 'brand.updated' } as const;

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

/** Server → client events (docs/api.md); each record carries its `version`. */
export interface ServerToClientEvents {
  'user.updated': (record: RecordByKind['user']) => void;
  'brand.updated': (record: RecordByKind['brand']) => void;
}

interface SocketData {
  user: AuthenticatedUser;
  rooms: string[];
}

/** The rooms a user's sockets belong in: their own, their session's, plus their brand's. */
async function roomsOf(
  me: MeDependencies,
  user: AuthenticatedUser,
  logger: Logger,
): Promise<string[]> {
  const rooms = [userRoom(user.id)];
  if (user.sessionId) rooms.push(sessionRoom(user.sessionId));
  try {
    const record = await findMyUser(me, user);
    if (record?.brand?.id) rooms.push(brandRoom(record.brand.id));
  } catch (error) {
    // Identity down: the socket still gets its own pushes; the brand room
    // is joined when the next user snapshot arrives (recordUpdated).
    handleError(error, logger, { socket: 'brand room lookup', userId: user.id });
  }
  return rooms;
}

/** Attaches socket.io to the HTTP server. */
export function createLiveServer(options: LiveServerOptions): LiveServer {
  const { config, authenticator, me, logger } = options;
  const io = new Server<
    Record<string, never>,
    ServerToClientEvents,
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
      .then(async (user) => {
        socket.data.user = user;
        socket.data.rooms = await roomsOf(me, user, logger);
        next();
      })
      .catch((error: unknown) => {
        handleError(error, logger, { socket: 'handshake' });
        next(new Error('unauthenticated'));
      });
  });

  io.on('connection', (socket) => {
    const { user, rooms } = socket.data;
    void socket.join(rooms);
    // A socket lives no longer than its token; the client reconnects with a fresh one.
    const expiry = setTimeout(
      () => socket.disconnect(true),
      Math.min(Math.max(user.expiresAtMs - Date.now(), 0), MAX_TIMER_MS),
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
    recordUpdated<K extends AggregateKind>(kind: K, record: RecordByKind[K]) {
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
