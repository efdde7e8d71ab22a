/**
 * A child process of a benchmark that holds many socket.io connections to
 * the BFF's `/live` (docs/api.md "socket.io") and records, per socket, when
 * each watched value first arrived. Driven over IPC:
 *  → `{ type: 'connect', url, tokens, concurrency, localAddress? }` ← `{ type: 'connected', connected, failed }`
 *    (`localAddress`: the loopback address the sockets leave from, so more
 *    sockets than one address has ephemeral ports can reach one server)
 *  → `{ type: 'watch', event, field }` ← `{ type: 'watching' }`: from now on, every `event` whose
 *    payload's `field` holds a value not yet seen by that socket is recorded as `[value, epoch ms]`
 *  → `{ type: 'collect' }` ← `{ type: 'received', arrivals }` (and forgets them)
 *  → `{ type: 'loop' }` ← `{ type: 'loop', delay }`: this process's event-loop delay since the
 *    last `loop` (ms; a late receiver makes arrivals look late that were not)
 *  → `{ type: 'close' }`: disconnects everything and exits.
 * With `track: true` on connect (the chaos run, ./chaos/), the sockets behave like the web
 * app's tabs: they reconnect (with the newest token, see `tokens`) and keep, per record
 * (`<event>:<id>`), the highest version pushed, counting pushes of a version they already
 * held (duplicates) or of a lower one (out of order):
 *  → `{ type: 'tokens', tokens }` ← `{ type: 'tokens-set' }`: fresh tokens, in connect order
 *  → `{ type: 'records' }` ← `{ type: 'records', sockets }`: per socket {@link TrackedSocket}
 */
import { io, type Socket } from 'socket.io-client';
import { LIVE_PATH, type LiveHandshakeRefusalData } from '@raly/contracts/live';
import { liveRetryDelayMs } from '@raly/contracts/live-retry';
import { nowMs, watchLoopDelay } from './stats';

type Command =
  | {
      type: 'connect';
      url: string;
      tokens: string[];
      concurrency: number;
      localAddress?: string;
      track?: boolean;
    }
  | { type: 'watch'; event: string; field: string }
  | { type: 'collect' }
  | { type: 'loop' }
  | { type: 'tokens'; tokens: string[] }
  | { type: 'records' }
  | { type: 'close' };

/** What a tracking socket holds and saw (the chaos run's client side). */
export interface TrackedSocket {
  connected: boolean;
  /** Times it connected again after losing its connection. */
  reconnects: number;
  /** Per record (`<event>:<id>`): the highest version pushed and that record. */
  records: Record<string, { version: number; record: unknown }>;
  /** Each higher version's first arrival: `[record key, version, epoch ms]`. */
  arrivals: [string, number, number][];
  /** Pushes of a version it already held, and of a lower version. */
  duplicates: number;
  outOfOrder: number;
  /** Why it lost its connection, by socket.io's reason (`transport close`, `io server disconnect`…). */
  disconnects: Record<string, number>;
  /** Refused handshakes, by the BFF's message (`unauthenticated`, `unavailable`). */
  refusals: Record<string, number>;
}

const sockets: Socket[] = [];
/** Set by the `close` command: no reconnection after that. */
let closing = false;
/** Wait before a tracking socket connects again after the BFF ended it (ms), as the web app. */
const SERVER_CLOSE_RECONNECT_MS = 1000;
let tokensInOrder: string[] = [];
const tracked: TrackedSocket[] = [];
const trackedSockets = new WeakSet<Socket>();

/** Makes a socket keep the highest version of every record pushed to it (see {@link TrackedSocket}). */
function track(socket: Socket): void {
  const state: TrackedSocket = {
    connected: false,
    reconnects: 0,
    records: {},
    arrivals: [],
    duplicates: 0,
    outOfOrder: 0,
    disconnects: {},
    refusals: {},
  };
  tracked.push(state);
  trackedSockets.add(socket);
  let everConnected = false;
  let refusalsInARow = 0;
  // As the web app's live socket does (web/src/lib/live-socket.ts): connect again after the BFF
  // ended the socket, and after a handshake the BFF refused as retryable (it could not check
  // the token during a fault), waiting longer after each refusal in a row.
  const connectLater = (delayMs: number) =>
    setTimeout(() => {
      if (!socket.active && !closing) socket.connect();
    }, delayMs);
  socket.on('connect', () => {
    if (everConnected) state.reconnects += 1;
    everConnected = true;
    state.connected = true;
    refusalsInARow = 0;
  });
  socket.on('disconnect', (reason) => {
    state.connected = false;
    state.disconnects[reason] = (state.disconnects[reason] ?? 0) + 1;
    if (reason === 'io server disconnect') connectLater(SERVER_CLOSE_RECONNECT_MS);
  });
  socket.on('connect_error', (error: Error & { data?: Partial<LiveHandshakeRefusalData> }) => {
    state.refusals[error.message] = (state.refusals[error.message] ?? 0) + 1;
    if (socket.active || error.data?.retryable !== true) return;
    refusalsInARow += 1;
    connectLater(liveRetryDelayMs(refusalsInARow));
  });
  socket.onAny((event: string, payload: { id?: unknown; version?: unknown } | undefined) => {
    if (typeof payload?.id !== 'string' || typeof payload.version !== 'number') return;
    const key = `${event}:${payload.id}`;
    const held = state.records[key];
    if (held && held.version === payload.version) state.duplicates += 1;
    else if (held && held.version > payload.version) state.outOfOrder += 1;
    else {
      state.records[key] = { version: payload.version, record: payload };
      state.arrivals.push([key, payload.version, nowMs()]);
    }
  });
}
let arrivals: [string, number][] = [];
let watched: { event: string; field: string } | undefined;

const send = (message: object) => process.send?.(message);
const loopDelay = watchLoopDelay();

/**
 * Opens one socket (WebSocket only; no reconnection unless tracking); resolves
 * true once connected, false if refused.
 * @param index its place in connect order (its token in a later `tokens` command)
 */
function connectOne(
  url: string,
  index: number,
  localAddress?: string,
  tracking = false,
): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = io(url, {
      path: LIVE_PATH,
      transports: ['websocket'],
      // A function: a reconnection hands over the newest token.
      auth: (give) => give({ token: tokensInOrder[index] }),
      reconnection: tracking,
      reconnectionDelay: 500,
      reconnectionDelayMax: 5000,
      timeout: 60_000,
      ...(localAddress ? { localAddress } : {}),
    });
    if (tracking) track(socket);
    const seen = new Set<string>();
    socket.onAny((event: string, payload: Record<string, unknown> | undefined) => {
      if (!watched || event !== watched.event) return;
      const value = String(payload?.[watched.field]);
      if (seen.has(value)) return;
      seen.add(value);
      arrivals.push([value, nowMs()]);
    });
    socket.once('connect', () => resolve(true));
    socket.once('connect_error', () => {
      if (!tracking) socket.close();
      resolve(false);
    });
    sockets.push(socket);
  });
}

async function connectAll(
  url: string,
  tokens: string[],
  concurrency: number,
  localAddress?: string,
  tracking = false,
) {
  let connected = 0;
  tokensInOrder = [...tokens];
  for (let start = 0; start < tokens.length; start += concurrency) {
    const batch = tokens.map((_, index) => index).slice(start, start + concurrency);
    const results = await Promise.all(
      batch.map((index) => connectOne(url, index, localAddress, tracking)),
    );
    connected += results.filter(Boolean).length;
  }
  return { connected, failed: tokens.length - connected };
}

process.on('message', (command: Command) => {
  if (command.type === 'connect') {
    void connectAll(
      command.url,
      command.tokens,
      command.concurrency,
      command.localAddress,
      command.track,
    ).then((counts) => send({ type: 'connected', ...counts }));
  } else if (command.type === 'tokens') {
    // As the web app does after a token refresh: reconnect with the fresh token
    // (the BFF ends a socket when the token it connected with expires).
    const changed = command.tokens.map((token, index) => token !== tokensInOrder[index]);
    tokensInOrder = [...command.tokens];
    sockets.forEach((socket, index) => {
      if (!changed[index]) return;
      if (socket.active) socket.disconnect().connect();
      // A tracking socket left closed (refused as unauthenticated with an expired token) comes
      // back with the fresh one, as the web app's socket does on a token change.
      else if (trackedSockets.has(socket) && !closing) socket.connect();
    });
    send({ type: 'tokens-set' });
  } else if (command.type === 'records') {
    send({ type: 'records', sockets: tracked });
  } else if (command.type === 'watch') {
    watched = { event: command.event, field: command.field };
    arrivals = [];
    send({ type: 'watching' });
  } else if (command.type === 'collect') {
    send({ type: 'received', arrivals });
    arrivals = [];
  } else if (command.type === 'loop') {
    send({ type: 'loop', delay: loopDelay.take() });
  } else {
    closing = true;
    for (const socket of sockets) socket.close();
    process.exit(0);
  }
});
send({ type: 'ready' });

// The bench is gone (killed, or its channel closed): its sockets must not live on.
process.on('disconnect', () => process.exit(0));
