/**
 * The ports tests start servers on (`freePort`, infra/src/test-env.ts): below the ephemeral range
 * outgoing connections use, never handed out twice by one process, reserved for it across the
 * machine's test processes, and free to listen on.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'vitest';
import { freePort, testPortRange } from '../src/test-env';

describe('freePort', () => {
  test('when 30 ports are picked, then each is in the test range, none twice, each reserved for this process and each can be listened on', async () => {
    // Act
    const ports: number[] = [];
    for (let pick = 0; pick < 30; pick += 1) ports.push(await freePort());

    // Assert
    assert.equal(new Set(ports).size, ports.length);
    for (const port of ports) {
      assert.ok(port >= testPortRange.first && port <= testPortRange.last, `${port} out of range`);
      const holder = await readFile(path.join(tmpdir(), 'raly-test-ports', String(port)), 'utf8');
      assert.equal(holder, String(process.pid));
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('then the test range lies below the ephemeral range of this machine', async () => {
    const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(
      () => '32768 60999',
    );
    const [firstEphemeral] = range.trim().split(/\s+/).map(Number);
    assert.ok(testPortRange.last < firstEphemeral!, `ephemeral ports start at ${firstEphemeral}`);
  });
});
