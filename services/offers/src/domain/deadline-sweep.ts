/**
 * The deadline sweep: every `intervalMs` (OFFERS_DEADLINE_SWEEP_MS), closes
 * the open offers whose apply-by date has passed (reason `deadline`,
 * ./offers.ts `closeExpiredOffers`). Safe with any number of instances: each
 * claims offers with `FOR UPDATE SKIP LOCKED`. Applications after the date
 * are refused even before the sweep has run.
 */
import { handleError } from '@raly/service-kit/errors';
import type { OffersDependencies } from './dependencies';
import { closeExpiredOffers } from './offers';

export interface DeadlineSweep {
  /** Stops the timer and waits for a sweep in flight. */
  stop(): Promise<void>;
}

/**
 * Starts the sweep (first run after one interval).
 * @param intervalMs time between the end of one sweep and the start of the next, in ms
 */
export function startDeadlineSweep(
  dependencies: OffersDependencies,
  intervalMs: number,
): DeadlineSweep {
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      inFlight = closeExpiredOffers(dependencies)
        .then((closed) => {
          if (closed > 0) dependencies.logger.info({ closed }, 'offers closed at their deadline');
        })
        .catch((error: unknown) => {
          handleError(error, dependencies.logger, { component: 'deadline-sweep' });
        })
        .finally(() => {
          inFlight = undefined;
          if (running) schedule();
        });
    }, intervalMs);
  };
  schedule();
  return {
    async stop() {
      running = false;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
