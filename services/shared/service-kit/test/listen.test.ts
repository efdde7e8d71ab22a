/** `listen` (src/http.ts): which interface a service's HTTP server binds, and what it answers for requests node's parser refuses. */
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { describe, test, afterEach } from 'vitest';
import express from 'express';
import { listen, type RunningServer } from '../src/http';

describe('listen', () => {
  const savedHost = process.env.HOST;
  let running: RunningServer | undefined;

  afterEach(async () => {
    await running?.close();
    running = undefined;
    if (savedHost === undefined) delete process.env.HOST;
    else process.env.HOST = savedHost;
  });

  test('when HOST is not set, then the server listens on loopback only', async () => {
    // Arrange
    delete process.env.HOST;

    // Act
    running = await listen(express(), 0);

    // Assert
    assert.equal((running.server.address() as AddressInfo).address, '127.0.0.1');
  });

  test('when HOST is 0.0.0.0 (a container), then the server listens on every interface', async () => {
    // Arrange
    process.env.HOST = '0.0.0.0';

    // Act
    running = await listen(express(), 0);

    // Assert
    assert.equal((running.server.address() as AddressInfo).address, '0.0.0.0');
  });

  /** Sends `raw` over a new connection and resolves with everything the server wrote back. */
  const exchange = (port: number, raw: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(raw));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });

  test("when the headers are over node's 16 KB limit or the request line is not HTTP, then the answer is the kit's JSON error, not a bare status line", async () => {
    // Arrange
    delete process.env.HOST;
    running = await listen(express(), 0);
    const padding = 'p'.repeat(20_000);

    // Act
    const tooLarge = await exchange(
      running.port,
      `GET /x HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${padding}\r\n\r\n`,
    );
    const malformed = await exchange(running.port, 'NOT HTTP AT ALL\r\n\r\n');

    // Assert
    const [tooLargeHead, tooLargeBody] = tooLarge.split('\r\n\r\n');
    assert.match(tooLargeHead!, /^HTTP\/1\.1 431 /);
    assert.match(tooLargeHead!, /Content-Type: application\/json/);
    assert.deepEqual(JSON.parse(tooLargeBody!), {
      error: { code: 'invalid-argument', message: 'Request headers are too large.' },
    });
    const [malformedHead, malformedBody] = malformed.split('\r\n\r\n');
    assert.match(malformedHead!, /^HTTP\/1\.1 400 /);
    assert.equal(JSON.parse(malformedBody!).error.message, 'The request is not valid HTTP.');
  });
});
