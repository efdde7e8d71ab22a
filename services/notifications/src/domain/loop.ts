/** A task run on a timer until stopped (the sweeps of this service). */
import { setInterval } from 'node:timers/promises';
import { handleError } from '@raly/service-kit/errors';
import type { NotificationsDependencies } from './dependencies';

export interface Loop {
  /** Stops the timer and waits for a run in flight. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalMs` (first after one interval; a failed run is logged and the next
 * runs).
 */
export function every(
  intervalMs: number,
  component: string,
  dependencies: Pick<NotificationsDependencies, 'logger'>,
  run: () => Promise<unknown>,
): Loop {
  const stopping = new AbortController();
  const ticks = setInterval(intervalMs, undefined, { signal: stopping.signal });
  const runs = (async () => {
    try {
      while (!(await ticks.next()).done) {
        try {
          await run();
        } catch (error) {
          handleError(error, dependencies.logger, { component });
        }
      }
    } catch (error) {
      // Stopping aborts the wait for the next tick; anything else is a fault of the timer.
      if (!stopping.signal.aborted) handleError(error, dependencies.logger, { component });
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await runs;
    },
  };
}
