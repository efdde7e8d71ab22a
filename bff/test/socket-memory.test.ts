/**
 * What the BFF keeps per idle socket: the upgrade request it releases once
 * engine.io is done with it (live/upgrade-memory.ts), and the one expiry
 * sweep instead of a timer per socket (live/expiry-sweep.ts).
 */
import assert from 'node:assert/strict';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, test } from 'vitest';
import { expiredSockets } from '../src/live/expiry-sweep';
import { releaseUpgradeRequest } from '../src/live/upgrade-memory';

/** A real upgrade request, as Node's HTTP server hands it to engine.io, with engine.io's fields added. */
async function anUpgradeRequest(): Promise<IncomingMessage & Record<string, unknown>> {
  const server = http.createServer();
  try {
    const upgrade = new Promise<IncomingMessage>((resolve) =>
      server.once('upgrade', (request: IncomingMessage, socket: Socket) => {
        socket.destroy();
        resolve(request);
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = http.request({
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      path: '/live/?EIO=4&transport=websocket',
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13' },
    });
    client.on('error', () => undefined);
    client.end();
    const request = (await upgrade) as IncomingMessage & Record<string, unknown>;
    request._query = { EIO: '4', transport: 'websocket' };
    request.websocket = {};
    return request;
  } finally {
    server.close();
  }
}

describe('releaseUpgradeRequest', () => {
  test('when an upgrade request is released, then its headers, URL and engine.io fields are gone, and reading or emitting on it still works', async () => {
    // Arrange
    const request = await anUpgradeRequest();
    assert.equal(request.headers.upgrade, 'websocket');

    // Act
    releaseUpgradeRequest(request);

    // Assert
    assert.equal(request.rawHeaders, undefined);
    assert.equal(request.url, undefined);
    assert.equal(request._query, undefined);
    assert.equal(request.websocket, undefined);
    for (const key of Object.getOwnPropertySymbols(request))
      assert.ok(typeof Reflect.get(request, key) !== 'object', String(key));
    assert.deepEqual(request.headers, {});
    assert.equal(request.emit('close'), false);
  });

  test('when what engine.io hands over is no object, then nothing happens', () => {
    assert.doesNotThrow(() => releaseUpgradeRequest(null));
    assert.doesNotThrow(() => releaseUpgradeRequest(undefined));
  });
});

describe('expiredSockets', () => {
  test("when some tokens expired by now, then exactly their sockets are swept, the console's staff sockets too, and a socket without a caller is left alone", () => {
    // Arrange
    const now = 1_800_000_000_000;
    const socketOf = (name: string, expiresAtMs?: number) => ({
      name,
      data: expiresAtMs === undefined ? {} : { caller: { expiresAtMs } },
    });
    const staffSocketOf = (name: string, expiresAtMs: number) => ({
      name,
      data: { staff: { expiresAtMs } },
    });
    const sockets = [
      socketOf('expired long ago', now - 60_000),
      socketOf('expires now', now),
      socketOf('expires in a second', now + 1000),
      socketOf('still in its handshake'),
      staffSocketOf('staff token expired', now - 1),
      staffSocketOf('staff token in force', now + 1000),
    ];

    // Act
    const swept = [...expiredSockets(sockets, now)].map((socket) => socket.name);

    // Assert
    assert.deepEqual(swept, ['expired long ago', 'expires now', 'staff token expired']);
  });
});
