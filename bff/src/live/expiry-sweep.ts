/**
 * A socket lives no longer than its token (the client reconnects with a
 * fresh one): one sweep a second over a replica's sockets rather than a
 * timer per socket (memory per idle socket).
 */
import type { Caller } from '@raly/service-kit/auth';
import type { LiveIo } from './live-io';

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
 * Starts the sweep of `io`'s sockets (it does not hold the process open).
 * @returns stops it
 */
export function startExpirySweep(io: LiveIo): () => void {
  const sweep = setInterval(() => {
    for (const socket of expiredSockets(io.of('/').sockets.values(), Date.now()))
      socket.disconnect(true);
  }, EXPIRY_SWEEP_MS);
  sweep.unref();
  return () => clearInterval(sweep);
}
