/** BENCH_PORTS: the ports of what the bench starts come from the range asked for. */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { describe, test } from 'vitest';
import { benchPort, benchPortRange } from '../src/ports';

describe('bench ports', () => {
  test('when BENCH_PORTS is malformed or out of bounds, then it is refused with its name', () => {
    for (const value of ['17000', '18000-17000', '80-90', '17000-70000', 'a-b'])
      assert.throws(() => benchPortRange(value), /BENCH_PORTS/, value);
    assert.deepEqual(benchPortRange(' 17000 - 17010 '), { first: 17000, last: 17010 });
    assert.equal(benchPortRange(''), undefined);
  });

  test('when BENCH_PORTS is set and its first port is taken, then each port handed out is another free one of the range', async () => {
    // Arrange: a range of the upper end of this suite's ports, its first port held by a listener.
    const previous = process.env.BENCH_PORTS;
    process.env.BENCH_PORTS = '17990-17999';
    const holder = createServer().listen(17990, '127.0.0.1');
    await once(holder, 'listening');
    try {
      // Act
      const ports = [await benchPort(), await benchPort(), await benchPort()];

      // Assert
      assert.equal(new Set(ports).size, 3, 'no port handed out twice');
      for (const port of ports) assert.ok(port > 17990 && port <= 17999, String(port));
    } finally {
      holder.close();
      if (previous === undefined) delete process.env.BENCH_PORTS;
      else process.env.BENCH_PORTS = previous;
    }
  });
});
