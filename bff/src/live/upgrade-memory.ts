/**
 * Memory per idle socket: engine.io keeps the HTTP request of a WebSocket
 * upgrade for the socket's whole life (on its connection, and in closures of
 * its upgrade handling that live until the TCP socket closes), and nothing
 * reads it once the socket is open (socket.io's handshake then has no
 * headers, only `auth`). Its contents are released once engine.io is done
 * with it (docs/benchmarks.md "Idle sockets").
 */
import type { LiveIo } from './live-io';

/** What engine.io adds to an upgrade request: its parsed query and, once upgraded, the ws socket. */
interface UpgradeFields {
  _query?: { sid?: string };
  websocket?: unknown;
}

/** The data an upgrade request holds: headers, URL, the query and ws socket engine.io adds. */
const RELEASED_REQUEST_FIELDS = ['rawHeaders', 'rawTrailers', 'url', '_query', 'websocket'];

/**
 * Empties the HTTP request of a completed WebSocket upgrade: its headers, raw
 * headers, URL, parsed query, ws socket and Node's header caches (kHeaders,
 * …; its `headers` getter then yields `{}`). The object and its stream state
 * stay, so an event on it still finds its emitter fields. Anything not an
 * object is left as it is.
 */
export function releaseUpgradeRequest(request: unknown): void {
  if (typeof request !== 'object' || request === null) return;
  // Overwritten, not deleted: a deleted property turns the object into a dictionary, which
  // costs more than the fields it held.
  const fields = [...RELEASED_REQUEST_FIELDS, ...Object.getOwnPropertySymbols(request)];
  for (const key of fields) if (Object.hasOwn(request, key)) Reflect.set(request, key, undefined);
}

/**
 * Releases every upgrade request of `io`'s engine once engine.io is done with
 * it. A new WebSocket connection: when it is announced (its handshake awaits
 * an id first). The upgrade of a polling connection (the web app's way):
 * engine.io announces the upgrade's response headers, then hands the request
 * to its synchronous upgrade handling, which sets `request.websocket`; a
 * microtask queued at the announcement runs once that handling returned.
 */
export function releaseUpgradeRequests(io: LiveIo): void {
  io.engine.on('connection', (connection: { request: unknown; transport: { name: string } }) => {
    if (connection.transport.name === 'websocket') releaseUpgradeRequest(connection.request);
    connection.request = null;
  });
  io.engine.on('headers', (_headers: unknown, request: UpgradeFields) => {
    if (request._query?.sid)
      queueMicrotask(() => {
        if (request.websocket) releaseUpgradeRequest(request);
      });
  });
}
