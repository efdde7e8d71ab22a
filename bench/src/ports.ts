/**
 * Ports for what the bench starts (the apps, the bare express server, nginx):
 * from BENCH_PORTS (`<first>-<last>`, e.g. `17000-17999`) when it is set, so
 * runs that share a machine keep to their own range; else a port the OS
 * picks (test-support `freePort`).
 */
import { once } from 'node:events';
import { createServer } from 'node:net';
import { freePort } from '@raly/test-support';

/**
 * Reads BENCH_PORTS.
 * @returns the inclusive range, or undefined when unset
 * @throws Error when it is not `<first>-<last>` with 1024 ≤ first ≤ last ≤ 65535
 */
export function benchPortRange(
  value = process.env.BENCH_PORTS,
): { first: number; last: number } | undefined {
  if (!value?.trim()) return undefined;
  const match = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(value);
  const [first, last] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(first >= 1024 && first <= last && last <= 65535))
    throw new Error(`BENCH_PORTS: expected <first>-<last> within 1024-65535; got ${value}`);
  return { first, last };
}

/** Ports of the range handed out by this process (each at most once). */
const handedOut = new Set<number>();

/** True when 127.0.0.1:`port` can be bound now. */
async function bindable(port: number): Promise<boolean> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  try {
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([error]) => Promise.reject(error as Error)),
    ]);
  } catch {
    return false;
  }
  await new Promise((resolve) => server.close(resolve));
  return true;
}

/**
 * A loopback port that was free a moment ago: the next free one of BENCH_PORTS
 * not yet handed out by this process, else the OS's pick.
 * @throws Error when every port of BENCH_PORTS is taken or handed out
 */
export async function benchPort(): Promise<number> {
  const range = benchPortRange();
  if (!range) return freePort();
  for (let port = range.first; port <= range.last; port += 1) {
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await bindable(port)) return port;
  }
  throw new Error(`BENCH_PORTS ${range.first}-${range.last}: no free port left`);
}
