/**
 * The Vite proxy in front of the BFF (vite.shared.ts): X-Forwarded-For is the
 * browser's socket address, set by the proxy, never what the browser sent.
 */
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, beforeAll, afterAll } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { webConfig } from '../../vite.shared.ts';

/** A stand-in BFF that answers the headers it received. */
const bff = createHttpServer((request, response) => {
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(request.headers));
});
let vite: ViteDevServer;
let webUrl: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => bff.listen(0, '127.0.0.1', resolve));
  const bffUrl = `http://127.0.0.1:${(bff.address() as AddressInfo).port}`;
  const config = webConfig({ bffUrl, port: 0 });
  vite = await createServer({
    ...config,
    configFile: false,
    logLevel: 'silent',
    server: { ...config.server, host: '127.0.0.1', hmr: false, watch: null },
  });
  await vite.listen();
  webUrl = `http://127.0.0.1:${(vite.httpServer!.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await vite?.close();
  await new Promise((resolve) => bff.close(resolve));
});

test("when the browser sends its own X-Forwarded-For, then the proxy replaces it with the browser's socket address", async () => {
  // Act
  const response = await fetch(`${webUrl}/api/health`, {
    headers: { 'x-forwarded-for': '203.0.113.7, 198.51.100.9' },
  });
  const received = (await response.json()) as IncomingHttpHeaders;

  // Assert
  assert.equal(received['x-forwarded-for'], '127.0.0.1');
});

test("when the browser sends no X-Forwarded-For, then the proxy sets the browser's socket address", async () => {
  // Act
  const response = await fetch(`${webUrl}/api/health`);
  const received = (await response.json()) as IncomingHttpHeaders;

  // Assert
  assert.equal(received['x-forwarded-for'], '127.0.0.1');
});

test('when the app asks for /config.json, then the dev server answers the runtime configuration with its local defaults', async () => {
  const answer = await fetch(`${webUrl}/config.json`);

  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get('cache-control'), 'no-cache');
  assert.deepEqual(await answer.json(), {
    bffUrl: '',
    backendEnvironment: 'local',
  });
});
