/**
 * Session revocations (docs/api.md "Ending sessions", docs/adr/0005): access
 * tokens are verified offline, so a token whose Keycloak session has ended
 * would keep working until it expires (the realm's access token lifespan).
 * The BFF therefore keeps, in Redis, the sessions that have ended before
 * their tokens expire, and refuses their tokens on every `/api` request and
 * socket handshake:
 *
 *   `<prefix>:session:<sid>` = `1`: that session ended (logout).
 *   `<prefix>:user:<sub>` = `{ notBefore, keep? }`: every session of the user
 *     started before `notBefore` (epoch seconds, compared with the token's
 *     `iat` as Keycloak's own not-before rule does) has ended, except `keep`
 *     (password reset: all; e-mail change: all but the changing session).
 *
 * Each key expires after `ttlSeconds` (≥ access token lifespan + clock skew):
 * by then every token it could refuse has expired anyway. Listeners (the
 * socket server) are told of each revocation so open sockets close at once.
 */
import type { Redis } from 'ioredis';
import type { ClientSideCache } from './client-side-cache';

/** The claims of a verified access token a revocation is decided on. */
export interface TokenSession {
  /** `sub`: the user. */
  userId: string;
  /** `sid`: the Keycloak session, when the token names one. */
  sessionId: string | undefined;
  /** `iat`, epoch seconds. */
  issuedAtSec: number;
}

/** What ended: one session, or a user's sessions started before `notBeforeSec` (but `keepSessionId`). */
export type Revocation =
  | { kind: 'session'; sessionId: string }
  | { kind: 'user'; userId: string; notBeforeSec: number; keepSessionId?: string };

export interface SessionRevocations {
  /**
   * Records that one session ended (logout) and tells the listeners.
   * @param sessionId the token's `sid`
   */
  endSession(sessionId: string): Promise<void>;
  /**
   * Records that every session of the user that started before `notBeforeSec`
   * ended, except `keepSessionId`, and tells the listeners. A later call
   * replaces an earlier one (the latest event decides which session survives).
   */
  endUserSessions(
    userId: string,
    options: { notBeforeSec: number; keepSessionId?: string },
  ): Promise<void>;
  /**
   * @returns true when the token's session has ended
   * @throws the Redis client's error when Redis cannot be read (fail closed)
   */
  isRevoked(token: TokenSession): Promise<boolean>;
  /** Registers a listener called after each recorded revocation (on this instance). */
  onRevoked(listener: (revocation: Revocation) => void): void;
}

interface UserMark {
  notBefore: number;
  keep?: string;
}

/**
 * @param redis the BFF's Redis client
 * @param settings `keyPrefix` (e.g. `bff:revoked`) and `ttlSeconds` of every key
 * @param cache the client-side cache the marks are read through (./client-side-cache,
 *   docs/adr/0012); without it every check reads Redis
 */
export function createSessionRevocations(
  redis: Redis,
  settings: { keyPrefix: string; ttlSeconds: number },
  cache?: ClientSideCache,
): SessionRevocations {
  const sessionKey = (sessionId: string) => `${settings.keyPrefix}:session:${sessionId}`;
  const userKey = (userId: string) => `${settings.keyPrefix}:user:${userId}`;
  const listeners: ((revocation: Revocation) => void)[] = [];
  const tell = (revocation: Revocation) => {
    for (const listener of listeners) listener(revocation);
  };

  return {
    async endSession(sessionId) {
      cache?.forget(sessionKey(sessionId));
      await redis.set(sessionKey(sessionId), '1', 'EX', settings.ttlSeconds);
      tell({ kind: 'session', sessionId });
    },
    async endUserSessions(userId, { notBeforeSec, keepSessionId }) {
      const mark: UserMark = {
        notBefore: notBeforeSec,
        ...(keepSessionId ? { keep: keepSessionId } : {}),
      };
      cache?.forget(userKey(userId));
      await redis.set(userKey(userId), JSON.stringify(mark), 'EX', settings.ttlSeconds);
      tell({
        kind: 'user',
        userId,
        notBeforeSec,
        ...(keepSessionId ? { keepSessionId } : {}),
      });
    },
    async isRevoked({ userId, sessionId, issuedAtSec }) {
      const keys = [sessionKey(sessionId ?? '-'), userKey(userId)];
      const [sessionEnded, userMark] = await (cache ? cache.mget(keys) : redis.mget(...keys));
      if (sessionId && sessionEnded) return true;
      if (!userMark) return false;
      const mark = JSON.parse(userMark) as UserMark;
      return issuedAtSec < mark.notBefore && !(sessionId && sessionId === mark.keep);
    },
    onRevoked(listener) {
      listeners.push(listener);
    },
  };
}
