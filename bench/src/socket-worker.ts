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
 *  → `{ type: 'close' }`: disconnects everything and exits.
 */
import { io, type Socket } from 'socket.io-client';
import { LIVE_PATH } from '@raly/contracts/live';
import { nowMs } from './stats';

type Command =
  | {
      type: 'connect';
      url: string;
      tokens: string[];
      concurrency: number;
      localAddress?: string;
    }
  | { type: 'watch'; event: string; field: string }
  | { type: 'collect' }
  | { type: 'close' };

const sockets: Socket[] = [];
let arrivals: [string, number][] = [];
let watched: { event: string; field: string } | undefined;

const send = (message: object) => process.send?.(message);

/** Opens one socket (WebSocket only, no reconnection); resolves true once connected, false if refused. */
function connectOne(url: string, token: string, localAddress?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = io(url, {
      path: LIVE_PATH,
      transports: ['websocket'],
      auth: { token },
      reconnection: false,
      timeout: 60_000,
      ...(localAddress ? { localAddress } : {}),
    });
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
      socket.close();
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
) {
  let connected = 0;
  for (let start = 0; start < tokens.length; start += concurrency) {
    const batch = tokens.slice(start, start + concurrency);
    const results = await Promise.all(batch.map((token) => connectOne(url, token, localAddress)));
    connected += results.filter(Boolean).length;
  }
  return { connected, failed: tokens.length - connected };
}

process.on('message', (command: Command) => {
  if (command.type === 'connect') {
    void connectAll(command.url, command.tokens, command.concurrency, command.localAddress).then(
      (counts) => send({ type: 'connected', ...counts }),
    );
  } else if (command.type === 'watch') {
    watched = { event: command.event, field: command.field };
    arrivals = [];
    send({ type: 'watching' });
  } else if (command.type === 'collect') {
    send({ type: 'received', arrivals });
    arrivals = [];
  } else {
    for (const socket of sockets) socket.close();
    process.exit(0);
  }
});
send({ type: 'ready' });
