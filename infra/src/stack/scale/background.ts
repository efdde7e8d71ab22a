/** Starting one recorded background process of the scaled topology and waiting until it is healthy. */
import type { StackComponent } from '../component';
import {
  recordedLiveProcess,
  startBackgroundProcess,
  stopRecorded,
  type BackgroundProcess,
} from '../processes';
import { waitUntilHealthy } from '../probes';

/**
 * Starts `process` in its own process group (recorded in `.stack/run/`, logging to
 * `.stack/logs/<component>.log`) and waits until `isHealthy` answers true.
 * @param timeoutMs how long it may take to become healthy
 * @returns the pid of the started process
 * @throws Error when the process exits while starting, or is not healthy in time
 */
export async function startAndAwaitHealthy(
  process: BackgroundProcess,
  isHealthy: () => Promise<boolean>,
  timeoutMs: number,
): Promise<number> {
  const name = process.component;
  const pid = startBackgroundProcess(process);
  await waitUntilHealthy(isHealthy, {
    component: name,
    timeoutMs,
    intervalMs: 1000,
    stillStarting: () => {
      if (!recordedLiveProcess(name))
        throw new Error(`${name}: exited while starting (pid ${pid}); see .stack/logs/${name}.log`);
    },
  });
  return pid;
}

/**
 * A stack component that is one recorded background process: `ensure()`
 * reuses it when healthy, else stops what a stale record names and calls
 * `start` (which starts it and waits until healthy); `stop()` stops the
 * recorded process (SIGKILL after `stopGraceMs`).
 */
export function backgroundComponent(options: {
  name: string;
  address: string;
  isHealthy: () => Promise<boolean>;
  start: () => Promise<unknown>;
  stopGraceMs: number;
}): StackComponent {
  const { name, isHealthy } = options;
  return {
    name,
    address: options.address,
    isHealthy,
    async ensure() {
      if (await isHealthy()) return 'reused';
      if (recordedLiveProcess(name)) await stopRecorded(name);
      await options.start();
      return 'started';
    },
    stop: () => stopRecorded(name, options.stopGraceMs),
  };
}
