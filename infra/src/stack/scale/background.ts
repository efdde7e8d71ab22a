/** Starting one recorded background process of the scaled topology and waiting until it is healthy. */
import { recordedLiveProcess, startBackgroundProcess, type BackgroundProcess } from '../processes';
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
