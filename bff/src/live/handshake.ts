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

/**
 * The token of a socket's handshake (`auth.token`), taken off it with the upgrade's headers and
 * query: the token is kept once, on the verified caller (shared by every socket of the token),
 * not per socket, and nothing reads the headers or query after the handshake (memory per idle
 * socket: about 1 KB each).
 * @param handshake the socket's `handshake`, emptied of `auth`, `headers` and `query`
 * @returns the token, or undefined when none was sent
 */
export function takeHandshakeToken(handshake: {
  auth: object;
  headers: object;
  query: object;
}): string | undefined {
  const token = handshakeTokenOf(handshake);
  handshake.auth = {};
  handshake.headers = {};
  handshake.query = {};
  return token;
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
    const token = takeHandshakeToken(socket.handshake);
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
