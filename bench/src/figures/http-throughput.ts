/**
 * GET /api/me throughput of the BFF against a bare express "hello world" on
 * the same Node, with the same load generator (autocannon) and settings, so
 * their ratio is fair. The two are measured in interleaved rounds (BFF then
 * bare, bare then BFF, …): a burst of other work on the machine (a GC of
 * Kafka's JVM, a Keycloak timer) then falls into one round of one side, and
 * the median of the rounds' ratios is not moved by it.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { eventually } from '@raly/test-support';
import { benchPort } from '../ports';
import { cpuTimeMs } from '../process-usage';
import { percentile } from '../stats';

/** One round: each side measured once, back to back. */
export interface ThroughputRound {
  bffRequestsPerSecond: number;
  bareRequestsPerSecond: number;
  ratio: number;
}

export interface ThroughputResult {
  /** median of the rounds' BFF rates, req/s */
  bffRequestsPerSecond: number;
  /** median of the rounds' bare express rates, req/s */
  bareRequestsPerSecond: number;
  /** median of the rounds' ratios (BFF ÷ bare) */
  ratio: number;
  /** non-2xx answers and errors of the BFF, all rounds */
  bffErrors: number;
  /**
   * CPU each server spent per answered request over all rounds (from /proc;
   * steadier than the rates on a machine shared with other work), ms.
   */
  cpuMsPerRequest: { bff: number; bare: number };
  rounds: ThroughputRound[];
}

interface SideRun {
  rate: number;
  errors: number;
  requests: number;
  cpuMs: number;
}

/** Requests per second autocannon reaches against one URL (non-2xx counted apart). */
async function requestsPerSecond(
  url: string,
  headers: Record<string, string>,
  durationSeconds: number,
  pid?: number,
): Promise<SideRun> {
  const cpuBefore = pid === undefined ? 0 : cpuTimeMs(pid);
  const result = await autocannon({ url, headers, connections: 20, duration: durationSeconds });
  return {
    rate: result.requests.average,
    errors: result.non2xx + result.errors,
    requests: result.requests.total,
    cpuMs: pid === undefined ? 0 : cpuTimeMs(pid) - cpuBefore,
  };
}

/**
 * @param bffPid the BFF's pid (its CPU time is read from /proc)
 * @param bffUrl the BFF's base URL
 * @param accessToken a creator's access token (GET /api/me as them)
 * @param durationSeconds length of one side's run in one round, s
 * @param rounds how many rounds (each side once per round); default 3
 * @returns medians over the rounds, and every round
 */
export async function measureHttpThroughput(
  bffPid: number,
  bffUrl: string,
  accessToken: string,
  durationSeconds: number,
  rounds = 3,
): Promise<ThroughputResult> {
  const port = await benchPort();
  const bare = fork(path.join(import.meta.dirname, '..', 'hello-server.ts'), [String(port)], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, NODE_ENV: 'development' }, // as the BFF (bench-system)
    stdio: 'inherit',
  });
  const bffSide = (seconds: number, pid?: number) =>
    requestsPerSecond(`${bffUrl}/api/me`, { authorization: `Bearer ${accessToken}` }, seconds, pid);
  const bareSide = (seconds: number, pid?: number) =>
    requestsPerSecond(`http://127.0.0.1:${port}/`, {}, seconds, pid);
  try {
    await eventually(
      'the bare express server',
      async () => (await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined))?.ok,
    );
    // Warm both up, then measure.
    await bffSide(2);
    await bareSide(2);
    const measured: Array<{ bff: SideRun; bare: SideRun }> = [];
    for (let round = 0; round < rounds; round++) {
      // Alternating which side goes first cancels a drift of the machine within a round.
      if (round % 2 === 0) {
        const bff = await bffSide(durationSeconds, bffPid);
        measured.push({ bff, bare: await bareSide(durationSeconds, bare.pid) });
      } else {
        const bareRun = await bareSide(durationSeconds, bare.pid);
        measured.push({ bff: await bffSide(durationSeconds, bffPid), bare: bareRun });
      }
    }
    const roundResults = measured.map(({ bff, bare: bareRun }) => ({
      bffRequestsPerSecond: bff.rate,
      bareRequestsPerSecond: bareRun.rate,
      ratio: bff.rate / bareRun.rate,
    }));
    // Nearest rank: with an odd number of rounds, the middle one.
    const median = (values: number[]) => percentile(values, 50);
    const perRequest = (runs: SideRun[]) =>
      runs.reduce((sum, run) => sum + run.cpuMs, 0) /
      Math.max(
        1,
        runs.reduce((sum, run) => sum + run.requests, 0),
      );
    return {
      bffRequestsPerSecond: median(roundResults.map((round) => round.bffRequestsPerSecond)),
      bareRequestsPerSecond: median(roundResults.map((round) => round.bareRequestsPerSecond)),
      ratio: median(roundResults.map((round) => round.ratio)),
      bffErrors: measured.reduce((sum, round) => sum + round.bff.errors, 0),
      cpuMsPerRequest: {
        bff: perRequest(measured.map((round) => round.bff)),
        bare: perRequest(measured.map((round) => round.bare)),
      },
      rounds: roundResults,
    };
  } finally {
    bare.kill();
  }
}
