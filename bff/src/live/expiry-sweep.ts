/**
 * A socket lives no longer than its token (the client reconnects with a
 * fresh one): one sweep a second over a replica's sockets, the product's
 * (namespace `/`) and the staff console's (`/console`), rather than a timer
 * per socket (memory per idle socket).
 */
import type { Caller } from '@raly/service-kit/auth';
import type { StaffSession } from '../auth/keycloak';
import type { ConsoleNamespace } from './console-live';
import type { LiveIo } from './live-io';

/** How often a replica closes the sockets whose access token expired (ms): a socket outlives its token by less. */
export const EXPIRY_SWEEP_MS = 1000;

/** What a socket keeps of its token: the product's caller, or the console's staff member. */
interface TokenHolder {
  data: {
    caller?: Pick<Caller, 'expiresAtMs'>;
    staff?: Pick<StaffSession, 'expiresAtMs'>;
  };
}

/**
 * The sockets whose access token (the product's caller's or the console's staff member's) has
 * expired by `nowMs` (epoch ms); a socket still in its handshake has neither and is left alone.
 * @param sockets a replica's sockets (socket.io's `io.of('/').sockets.values()`)
 */
export function* expiredSockets<S extends TokenHolder>(
  sockets: Iterable<S>,
  nowMs: number,
): Generator<S> {
  for (const socket of sockets) {
    const expiresAtMs = socket.data.caller?.expiresAtMs ?? socket.data.staff?.expiresAtMs;
    if (expiresAtMs !== undefined && expiresAtMs <= nowMs) yield socket;
  }
}

/**
 * Starts the sweep of `io`'s product sockets and of the console namespace's (it does not hold
 * the process open).
 * @returns stops it
 */
export function startExpirySweep(io: LiveIo, consoleNamespace: ConsoleNamespace): () => void {
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const socket of expiredSockets(io.of('/').sockets.values(), now)) socket.disconnect(true);
    for (const socket of expiredSockets(consoleNamespace.sockets.values(), now))
      socket.disconnect(true);
  }, EXPIRY_SWEEP_MS);
  sweep.unref();
  return () => clearInterval(sweep);
}
