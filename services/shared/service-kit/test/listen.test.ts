/** `listen` (src/http.ts): which interface a service's HTTP server binds. */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
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
});
