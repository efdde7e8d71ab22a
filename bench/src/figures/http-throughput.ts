/**
 * GET /api/me throughput of the BFF against a bare express "hello world" on
 * the same Node, measured one after the other in the same run with the same
 * load generator (autocannon) and settings, so their ratio is fair.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { eventually } from '@raly/test-support';
import { benchPort } from '../ports';
import { cpuTimeMs } from '../process-usage';

export interface ThroughputResult {
  bffRequestsPerSecond: number;
  bareRequestsPerSecond: number;
  ratio: number;
  bffErrors: number;
  /**
   * CPU each server spent per answered request (from /proc; steadier than
   * the rates on a machine shared with other work), ms.
   */
  cpuMsPerRequest: { bff: number; bare: number };
}

/** Requests per second autocannon reaches against one URL (non-2xx counted apart). */
async function requestsPerSecond(
  url: string,
  headers: Record<string, string>,
  durationSeconds: number,
  pid?: number,
): Promise<{ rate: number; errors: number; cpuMsPerRequest: number }> {
  const cpuBefore = pid === undefined ? 0 : cpuTimeMs(pid);
  const result = await autocannon({ url, headers, connections: 20, duration: durationSeconds });
  const cpuMs = pid === undefined ? 0 : cpuTimeMs(pid) - cpuBefore;
  return {
    rate: result.requests.average,
    errors: result.non2xx + result.errors,
    cpuMsPerRequest: cpuMs / Math.max(1, result.requests.total),
  };
}

/**
 * @param bffUrl the BFF's base URL
 * @param accessToken a creator's access token (GET /api/me as them)
 */
export async function measureHttpThroughput(
  bffPid: number,
  bffUrl: string,
  accessToken: string,
  durationSeconds: number,
): Promise<ThroughputResult> {
  const port = await benchPort();
  const bare = fork(path.join(import.meta.dirname, '..', 'hello-server.ts'), [String(port)], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, NODE_ENV: 'development' }, // as the BFF (bench-system)
    stdio: 'inherit',
  });
  try {
    await eventually(
      'the bare express server',
      async () => (await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined))?.ok,
    );
    // Warm both up, then measure each once.
    await requestsPerSecond(`${bffUrl}/api/me`, { authorization: `Bearer ${accessToken}` }, 2);
    await requestsPerSecond(`http://127.0.0.1:${port}/`, {}, 2);
    const bff = await requestsPerSecond(
      `${bffUrl}/api/me`,
      { authorization: `Bearer ${accessToken}` },
      durationSeconds,
      bffPid,
    );
    const bareRun = await requestsPerSecond(
      `http://127.0.0.1:${port}/`,
      {},
      durationSeconds,
      bare.pid,
    );
    return {
      bffRequestsPerSecond: bff.rate,
      bareRequestsPerSecond: bareRun.rate,
      ratio: bff.rate / bareRun.rate,
      bffErrors: bff.errors,
      cpuMsPerRequest: { bff: bff.cpuMsPerRequest, bare: bareRun.cpuMsPerRequest },
    };
  } finally {
    bare.kill();
  }
}
