/** The socket.io handshake: the access token is verified and the socket's rooms decided (./rooms). */
import { liveHandshakeRefusals, type LiveHandshakeRefusalData } from '@raly/contracts/live';
import { handshakeTokenOf } from '@raly/service-kit/auth';
import { AppError, handleError } from '@raly/service-kit/errors';
import type { Logger } from '@raly/service-kit/logger';
import type { Authenticator } from '../auth/keycloak';
import type { MeDependencies } from '../domain/me';
import type { LiveIo } from './live-io';
import { handshakeRoomsOf } from './rooms';

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

/** Admits to `io` only a handshake whose token is in force, with its caller and rooms on `socket.data`. */
export function authenticateHandshakes(
  io: LiveIo,
  {
    authenticator,
    me,
    logger,
  }: { authenticator: Authenticator; me: MeDependencies; logger: Logger },
): void {
  io.use((socket, next) => {
    const token = handshakeTokenOf(socket.handshake);
    // Kept once, on the verified caller (shared by every socket of the token), not per socket;
    // nothing reads the upgrade's headers or query after the handshake either (memory per
    // idle socket: about 1 KB each).
    socket.handshake.auth = {};
    socket.handshake.headers = {};
    socket.handshake.query = {};
    authenticator
      .verify(token)
      .then(async (caller) => {
        socket.data.caller = caller;
        Object.assign(socket.data, await handshakeRoomsOf(me, caller, logger));
        next();
      })
      .catch((error: unknown) => {
        handleError(error, logger, { socket: 'handshake' });
        next(handshakeRefusal(error));
      });
  });
}
