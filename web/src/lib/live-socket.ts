/**
 * The one socket.io connection of the tab to the BFF's live updates
 * (docs/api.md, path /live). It authenticates with the current access token
 * in the handshake, reconnects with the fresh token after every refresh and
 * after the BFF ended it (a token that expired first, e.g. after the laptop
 * slept), tries the handshake again with back-off while the BFF answers
 * `unavailable` (it could not check the token during a fault), and closes on
 * sign-out. A handshake refused as unauthenticated has the session checked
 * again (lib/session `recheckSession`): a session ended early, e.g. by a
 * staff suspension, signs the tab out. The server decides the rooms; we
 * only listen.
 */
import { io, type Socket } from 'socket.io-client';
import {
  liveHandshakeRefusals,
  type LiveHandshakeRefusalData,
  type LiveServerToClientEvents,
} from '@raly/contracts/live';
import { liveRetryDelayMs } from '@raly/contracts/live-retry';
import { env } from '@/config/env';
import { getAccessToken, onAccessTokenChanged, recheckSession } from '@/lib/session';

/** The socket of the BFF's live updates: it only listens. */
export type LiveSocket = Socket<LiveServerToClientEvents, Record<string, never>>;

let socket: LiveSocket | null = null;
let lastToken: string | null = null;
/** Whether the tab wants the socket: from {@link liveSocket} until sign-out. */
let wanted = false;
/** Wait before connecting again after the BFF ended the socket (ms): at most one handshake a second. */
const RECONNECT_AFTER_SERVER_CLOSE_MS = 1000;
/** Retryable handshake refusals in a row, for the back-off; 0 once connected. */
let refusalsInARow = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
/** The token of the last handshake sent. */
let handshakeToken: string | undefined;
/** When the session was last checked again after a refused handshake (ms since the epoch). */
let lastRecheckAt = 0;
/**
 * At most one check of the session per this many ms after refused handshakes: a refresh that
 * succeeds gives a token the BFF takes, so a second refusal soon after would loop.
 */
const RECHECK_INTERVAL_MS = 30_000;
/** How long after a refused handshake the session is checked, ms (a refresh in flight lands first). */
const RECHECK_DELAY_MS = 2000;

/** Connects again after `delayMs` if the tab still wants the socket and nothing reconnected it meanwhile. */
function connectLater(target: LiveSocket, delayMs: number): void {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => {
    retryTimer = undefined;
    if (wanted && !target.active) target.connect();
  }, delayMs);
}

/** Drops a pending back-off: a new token is a reason to try at once. */
function cancelRetry(): void {
  clearTimeout(retryTimer);
  retryTimer = undefined;
}

function createSocket(): LiveSocket {
  const options = {
    path: env.livePath,
    autoConnect: false,
    // Called on every (re)connect, so a reconnect always carries a fresh token.
    auth: (callback: (data: { token?: string }) => void) => {
      void getAccessToken().then((token) => {
        handshakeToken = token;
        callback({ token });
      });
    },
  };
  // This origin unless the runtime configuration names the BFF's own (config/env).
  const created: LiveSocket = env.bffUrl ? io(env.bffUrl, options) : io(options);
  onAccessTokenChanged((token) => {
    if (token === null) {
      lastToken = null;
      wanted = false;
      cancelRetry();
      created.disconnect();
      return;
    }
    if (token === lastToken) return;
    lastToken = token;
    cancelRetry();
    if (created.active) created.disconnect().connect();
    else if (wanted) created.connect();
  });
  // socket.io does not reconnect after a server-side disconnect, which is how the BFF ends a
  // socket whose token expired: connect again, the handshake asking for a fresh token (refreshed
  // when needed). A socket of an ended session is refused at the handshake and stays closed.
  created.on('disconnect', (reason) => {
    if (reason === 'io server disconnect') connectLater(created, RECONNECT_AFTER_SERVER_CLOSE_MS);
  });
  created.on('connect', () => {
    refusalsInARow = 0;
  });
  // A refused handshake is final for socket.io (`active` false). When the BFF says it could not
  // check the token (data.retryable: its Redis or a service away), try again, waiting longer
  // each time; an `unauthenticated` refusal stays closed until the token changes (after checking
  // the session, at most once per RECHECK_INTERVAL_MS).
  created.on('connect_error', (error: Error & { data?: Partial<LiveHandshakeRefusalData> }) => {
    if (created.active) return;
    // A token refused before it expired: the session may have ended (a suspension, a password
    // reset). Checking it signs this tab out when it has; the socket stays closed meanwhile.
    if (
      error.message === liveHandshakeRefusals.unauthenticated &&
      handshakeToken &&
      Date.now() - lastRecheckAt >= RECHECK_INTERVAL_MS
    ) {
      lastRecheckAt = Date.now();
      // After a moment: a refresh already under way (a page load's) replaces the token, and the
      // new token's handshake needs no check (recheckSession skips a token no longer held).
      const refused = handshakeToken;
      setTimeout(() => void recheckSession(refused), RECHECK_DELAY_MS);
      return;
    }
    if (error.data?.retryable !== true) return;
    refusalsInARow += 1;
    connectLater(created, liveRetryDelayMs(refusalsInARow));
  });
  return created;
}

/**
 * @returns the shared, connecting (or connected) socket; call only while signed in. While a
 *   refused handshake waits for its back-off, a new listener joins that wait instead of
 *   connecting at once.
 */
export function liveSocket(): LiveSocket {
  socket ??= createSocket();
  wanted = true;
  if (!socket.active && retryTimer === undefined) socket.connect();
  return socket;
}
