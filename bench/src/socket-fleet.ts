/**
 * Many socket.io clients of the BFF spread over child processes
 * (./socket-worker.ts), so the clients' own work does not share one event
 * loop, and their arrivals collected in one place.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { TrackedSocket } from './socket-worker';
import type { LoopDelay } from './stats';

interface Worker {
  child: ChildProcess;
  request<T>(message: object, answer: string): Promise<T>;
}

/** Forks one socket worker (tsx loader); resolves once it is ready. */
async function startWorker(): Promise<Worker> {
  const child = fork(path.join(import.meta.dirname, 'socket-worker.ts'), [], {
    execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const request = <T>(message: object, answer: string) =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`socket worker exited with ${code}`));
      const onMessage = (reply: { type: string }) => {
        if (reply.type !== answer) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(reply as T);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      if (Object.keys(message).length > 0) child.send(message);
    });
  await request({}, 'ready');
  return { child, request };
}

export interface SocketFleet {
  /** Sockets connected (and refused) over all workers. */
  connected: number;
  failed: number;
  /** The worker processes' ids (their CPU time: ./process-usage). */
  pids: number[];
  /** Each worker's event-loop delay since the last call (ms). */
  loopDelays(): Promise<LoopDelay[]>;
  /** Starts recording first arrivals of `event` per socket, keyed by the payload's `field`. */
  watch(event: string, field: string): Promise<void>;
  /** Arrivals since the last collect: `[value, epoch ms]`, one per socket and value. */
  collect(): Promise<[string, number][]>;
  /** Tracking fleets: hands every socket a fresh token (same order as `tokens`) for its reconnections. */
  setTokens(tokens: string[]): Promise<void>;
  /** Tracking fleets: every socket's state, in the order of `tokens`. */
  records(): Promise<TrackedSocket[]>;
  close(): Promise<void>;
}

/**
 * Connects one socket per token (repeat a token for several tabs of one user).
 * @param url the BFF's base URL
 * @param tokens access tokens, one per socket
 * @param workers how many child processes share them
 * @param localAddresses per worker, the loopback address its sockets leave
 *   from (a worker without one leaves from the default): one address has
 *   about 28,000 ephemeral ports towards one server port
 * @param track sockets that reconnect and keep the records pushed to them (./socket-worker.ts)
 */
export async function connectFleet(
  url: string,
  tokens: string[],
  workers = 2,
  localAddresses: string[] = [],
  track = false,
): Promise<SocketFleet> {
  const started = await Promise.all(Array.from({ length: workers }, startWorker));
  const share = Math.ceil(tokens.length / workers);
  const counts = await Promise.all(
    started.map((worker, index) =>
      worker.request<{ connected: number; failed: number }>(
        {
          type: 'connect',
          url,
          tokens: tokens.slice(index * share, (index + 1) * share),
          concurrency: 100,
          localAddress: localAddresses[index],
          track,
        },
        'connected',
      ),
    ),
  );
  return {
    connected: counts.reduce((sum, count) => sum + count.connected, 0),
    failed: counts.reduce((sum, count) => sum + count.failed, 0),
    pids: started.map((worker) => worker.child.pid!),
    async loopDelays() {
      const answers = await Promise.all(
        started.map((worker) => worker.request<{ delay: LoopDelay }>({ type: 'loop' }, 'loop')),
      );
      return answers.map((answer) => answer.delay);
    },
    async watch(event, field) {
      await Promise.all(
        started.map((worker) => worker.request({ type: 'watch', event, field }, 'watching')),
      );
    },
    async collect() {
      const batches = await Promise.all(
        started.map((worker) =>
          worker.request<{ arrivals: [string, number][] }>({ type: 'collect' }, 'received'),
        ),
      );
      return batches.flatMap((batch) => batch.arrivals);
    },
    async setTokens(fresh) {
      await Promise.all(
        started.map((worker, index) =>
          worker.request(
            { type: 'tokens', tokens: fresh.slice(index * share, (index + 1) * share) },
            'tokens-set',
          ),
        ),
      );
    },
    async records() {
      const batches = await Promise.all(
        started.map((worker) =>
          worker.request<{ sockets: TrackedSocket[] }>({ type: 'records' }, 'records'),
        ),
      );
      return batches.flatMap((batch) => batch.sockets);
    },
    async close() {
      for (const worker of started) {
        if (worker.child.exitCode === null) worker.child.send({ type: 'close' });
      }
      await Promise.all(
        started.map(
          (worker) =>
            new Promise((resolve) => {
              if (worker.child.exitCode !== null) resolve(undefined);
              else worker.child.once('exit', resolve);
            }),
        ),
      );
    },
  };
}
