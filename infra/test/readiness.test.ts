import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { test, afterAll } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitUntilReady } from '../src/supervision/readiness';
import { Supervisor } from '../src/supervision/supervisor';
import { freePort } from '../src/test-env';
import { ChildApps, Output } from './support/child-apps';

const childApps = new ChildApps();
afterAll(() => childApps.dispose());

/** An HTTP server on 127.0.0.1 answering every request with `status`; resolves with its probe URL. */
async function probeServer(status: number, servers: Server[]): Promise<string> {
  const server = createServer((_req, res) => {
    res.statusCode = status;
    res.end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(typeof address === 'object' && address);
  return `http://127.0.0.1:${address.port}/health/ready`;
}

test('when an app opens its probe port only after a while, then the gate is not through before the probe answers, and it says what it waits for', async () => {
  const servers: Server[] = [];
  const port = await freePort();
  const slow = childApps.app('slow', 'listen-later.mjs', {
    PORT: String(port),
    LISTEN_AFTER_MS: '1500',
  });
  const appOutput = new Output();
  const supervisor = new Supervisor([slow], { stdout: appOutput, stderr: appOutput });
  const gateOutput = new Output();
  try {
    const fastUrl = await probeServer(200, servers);
    supervisor.start();
    let through = false;
    const gate = waitUntilReady(
      [
        { name: 'fast', url: fastUrl },
        { name: 'slow', url: `http://127.0.0.1:${port}/health/ready` },
      ],
      { timeoutMs: 15_000, intervalMs: 100, output: gateOutput },
    ).then((notReady) => {
      through = true;
      return notReady;
    });

    await sleep(700);
    assert.equal(through, false, 'the gate let through before the slow app listened');

    const notReady = await gate;
    const throughAt = Date.now();

    assert.deepEqual(notReady, []);
    const listenedAt = Number(/listening at (\d+)/.exec(appOutput.text)?.[1]);
    assert.ok(throughAt >= listenedAt, 'the gate let through after the slow app listened');
    assert.match(gateOutput.text, /^waiting for fast, slow to answer their readiness probes/);
    assert.match(gateOutput.text, /ready: fast; still waiting for slow/);
  } finally {
    await supervisor.stop();
    for (const server of servers) server.close();
  }
});

test('when apps never answer their probes, then the gate gives up at its deadline and names each of them', async () => {
  const servers: Server[] = [];
  try {
    const readyUrl = await probeServer(200, servers);
    const busyUrl = await probeServer(503, servers);
    const absentUrl = `http://127.0.0.1:${await freePort()}/health/ready`;
    const output = new Output();
    const startedAt = Date.now();

    const notReady = await waitUntilReady(
      [
        { name: 'ready', url: readyUrl },
        { name: 'busy', url: busyUrl },
        { name: 'absent', url: absentUrl },
      ],
      { timeoutMs: 1000, intervalMs: 100, reportEveryMs: 400, output },
    );

    const elapsed = Date.now() - startedAt;
    assert.deepEqual(
      notReady.map((probe) => probe.name),
      ['busy', 'absent'],
    );
    assert.ok(elapsed >= 1000 && elapsed < 5000, `gave up after ${elapsed} ms`);
    assert.match(
      output.text,
      new RegExp(`still waiting for busy \\(${busyUrl}\\), absent \\(${absentUrl}\\)`),
    );
  } finally {
    for (const server of servers) server.close();
  }
});
