/**
 * GET /api/me throughput of the BFF against a bare express "hello world" on
 * the same Node, measured one after the other in the same run with the same
 * load generator (autocannon) and settings, so their ratio is fair.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort, eventually } from '@raly/test-support';

export interface ThroughputResult {
  bffRequestsPerSecond: number;
  bareRequestsPerSecond: number;
  ratio: number;
  bffErrors: number;
}

/** Requests per second autocannon reaches against one URL (non-2xx counted apart). */
async function requestsPerSecond(
  url: string,
  headers: Record<string, string>,
  durationSeconds: number,
): Promise<{ rate: number; errors: number }> {
  const result = await autocannon({ url, headers, connections: 20, duration: durationSeconds });
  return { rate: result.requests.average, errors: result.non2xx + result.errors };
}

/**
 * @param bffUrl the BFF's base URL
 * @param accessToken a creator's access token (GET /api/me as them)
 */
export async function measureHttpThroughput(
  bffUrl: string,
  accessToken: string,
  durationSeconds: number,
): Promise<ThroughputResult> {
  const port = await freePort();
  const bare = fork(path.join(import.meta.dirname, '..', 'hello-server.ts'), [String(port)], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, NODE_ENV: 'production' },
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
    );
    const bareRun = await requestsPerSecond(`http://127.0.0.1:${port}/`, {}, durationSeconds);
    return {
      bffRequestsPerSecond: bff.rate,
      bareRequestsPerSecond: bareRun.rate,
      ratio: bff.rate / bareRun.rate,
      bffErrors: bff.errors,
    };
  } finally {
    bare.kill();
  }
}
