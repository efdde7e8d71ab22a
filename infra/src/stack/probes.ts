/**
 * Small health probes (TCP, HTTP) and the wait-until-healthy loop every
 * component uses.
 */
import { connect } from 'node:net';

export function tcpAnswers(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function httpAnswers(url: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

export interface WaitOptions {
  component: string;
  timeoutMs: number;
  intervalMs?: number;
  /** Called while waiting; throwing from it stops the wait (e.g. the process died). */
  stillStarting?: () => void;
}

export async function waitUntilHealthy(
  check: () => Promise<boolean>,
  options: WaitOptions,
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    options.stillStarting?.();
    if (Date.now() > deadline) {
      throw new Error(
        `${options.component}: not healthy after ${Math.round(options.timeoutMs / 1000)} s (see .stack/logs/${options.component}.log)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500));
  }
}
