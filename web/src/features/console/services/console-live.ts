/**
 * The staff console's socket to the BFF's namespace `/console` (docs/api.md "socket.io", docs/
 * console.md "Reports in the browser"): the live report queue. It authenticates with the
 * console's access token (refreshed like the console's calls, `ConsoleSession.accessToken`) on
 * every handshake, connects again after the BFF ended it (its token expired), and after a refused
 * handshake tries again with back-off (`liveRetryDelayMs`, 1 s up to 30 s): a token that expired
 * on the way is replaced by the next handshake's, and a session Keycloak ended sends the browser
 * to sign in again (`accessToken`). It never shares the product's socket or tokens.
 */
import { io, type Socket } from 'socket.io-client';
import {
  CONSOLE_LIVE_NAMESPACE,
  consoleLiveEvents,
  type ConsoleServerToClientEvents,
} from '@raly/contracts/console-live';
import { liveRetryDelayMs } from '@raly/contracts/live-retry';
import type { ReportRecord } from '@raly/contracts/reports';
import type { ConsoleSession } from '@/features/console/services/console-session';

/** What a watcher of the report queue hears. */
export interface ReportFeedListener {
  /** A report opened or changed (any version; keep the higher per report). */
  report(report: ReportRecord): void;
  /** The socket connected (true: after this, the queue read now misses nothing) or went down. */
  connection(connected: boolean): void;
}

/** Wait before connecting again after the BFF ended the socket (ms). */
const RECONNECT_AFTER_SERVER_CLOSE_MS = 1000;

/**
 * Where the BFF's live socket answers, from config/env (`bffUrl`, '' for this origin, and
 * `livePath`), handed to the console by the router so that the console's chunk does not import
 * config/env or the product's live contracts, which the first page holds.
 */
export interface ConsoleLiveAddress {
  origin: string;
  path: string;
}

/**
 * Connects a socket to the console's namespace for `session` and reports to `listener` until
 * the returned function is called.
 * @param live where the BFF's socket.io server answers
 * @returns disconnects the socket and stops every retry
 */
export function watchConsoleReports(
  live: ConsoleLiveAddress,
  session: ConsoleSession,
  listener: ReportFeedListener,
): () => void {
  let refusalsInARow = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const options = {
    path: live.path,
    autoConnect: false,
    // Called on every (re)connect, so each handshake carries a fresh token.
    auth: (callback: (data: { token?: string }) => void) => {
      session.accessToken().then(
        (token) => callback({ token }),
        () => callback({}),
      );
    },
  };
  const socket: Socket<ConsoleServerToClientEvents, Record<string, never>> = io(
    `${live.origin}${CONSOLE_LIVE_NAMESPACE}`,
    options,
  );
  const connectLater = (delayMs: number) => {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (!socket.active) socket.connect();
    }, delayMs);
  };
  socket.on(consoleLiveEvents.report, (report) => listener.report(report));
  socket.on('connect', () => {
    refusalsInARow = 0;
    listener.connection(true);
  });
  socket.on('disconnect', (reason) => {
    listener.connection(false);
    // socket.io does not reconnect after the server ended the socket (an expired token).
    if (reason === 'io server disconnect') connectLater(RECONNECT_AFTER_SERVER_CLOSE_MS);
  });
  socket.on('connect_error', () => {
    listener.connection(false);
    // A transport error: socket.io reconnects by itself. A refused handshake is final for it.
    if (socket.active) return;
    refusalsInARow += 1;
    connectLater(liveRetryDelayMs(refusalsInARow));
  });
  socket.connect();
  return () => {
    clearTimeout(retryTimer);
    socket.off();
    socket.disconnect();
  };
}
