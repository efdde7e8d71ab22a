/**
 * The callable client's spec §9 defaults (timeout 70000 ms, region
 * us-central1) and its timeout, against a local HTTP server that answers
 * late or at once.
 */
import { test, beforeAll, afterAll } from 'vitest';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { CallableError } from '@raly/contracts/callable';
import { CALLABLE_REGION, CALLABLE_TIMEOUT_MS } from '@raly/contracts/constants';
import { CALLABLE_REGION_HEADER, createCallableClient } from '../../src/lib/callable-client.ts';

/** How long the server waits before answering `/api/callable/checkEmailExists` (ms). */
const SLOW_ANSWER_MS = 1000;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

let server: Server;
let baseUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || 'null') as unknown;
      received.push({ path: request.url ?? '', headers: request.headers, body });
      const answer = () => {
        if (response.destroyed) return;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ data: false }));
      };
      if (request.url === '/api/callable/checkEmailExists') setTimeout(answer, SLOW_ANSWER_MS);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('when no timeout or region is given, then the defaults are 70000 ms and us-central1 (spec §9)', () => {
  const client = createCallableClient({ baseUrl });

  assert.equal(client.config.timeoutMs, CALLABLE_TIMEOUT_MS);
  assert.equal(client.config.timeoutMs, 70_000);
  assert.equal(client.config.region, CALLABLE_REGION);
  assert.equal(client.config.region, 'us-central1');
});

test('when a callable is called, then it posts { data } with the bearer token and the default region header', async () => {
  // Arrange
  const token = `token-${randomUUID()}`;
  const username = `u${randomUUID().slice(0, 8)}`;
  const client = createCallableClient({ baseUrl, getAccessToken: async () => token });

  // Act
  const answer = await client.call<boolean>('checkUsernameExists', { username });

  // Assert
  assert.equal(answer, false);
  const request = received.find(
    (entry) => (entry.body as { data?: { username?: string } }).data?.username === username,
  );
  assert.ok(request, 'the server received the call');
  assert.equal(request.path, '/api/callable/checkUsernameExists');
  assert.deepEqual(request.body, { data: { username } });
  assert.equal(request.headers.authorization, `Bearer ${token}`);
  assert.equal(request.headers[CALLABLE_REGION_HEADER], 'us-central1');
  assert.match(String(request.headers.traceparent), /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
});

test('when the answer takes longer than the timeout, then the call fails with deadline-exceeded', async () => {
  // Arrange
  const timeoutMs = 100;
  const client = createCallableClient({ baseUrl, timeoutMs });
  const startedAt = Date.now();

  // Act
  const failure = await client
    .call('checkEmailExists', { email: `${randomUUID()}@example.test` })
    .then(
      () => undefined,
      (error: unknown) => error,
    );

  // Assert
  assert.ok(failure instanceof CallableError, `a CallableError, got ${String(failure)}`);
  assert.equal(failure.code, 'deadline-exceeded');
  const elapsed = Date.now() - startedAt;
  assert.ok(elapsed < SLOW_ANSWER_MS, `gave up after ${elapsed} ms, before the answer`);
});

test('when the answer comes within the timeout, then its data is returned', async () => {
  const client = createCallableClient({ baseUrl, timeoutMs: SLOW_ANSWER_MS * 5 });

  const answer = await client.call<boolean>('checkEmailExists', {
    email: `${randomUUID()}@example.test`,
  });

  assert.equal(answer, false);
});

test('when another region is configured, then that region is sent', async () => {
  const username = `r${randomUUID().slice(0, 8)}`;
  const client = createCallableClient({ baseUrl, region: 'europe-west1' });

  await client.call('checkUsernameExists', { username });

  const request = received.find(
    (entry) => (entry.body as { data?: { username?: string } }).data?.username === username,
  );
  assert.equal(request?.headers[CALLABLE_REGION_HEADER], 'europe-west1');
});
