/**
 * The work's two sweeps, every `intervalMs` (COLLABORATIONS_SWEEP_MS): a
 * submission the brand has not reviewed within the review window is approved
 * automatically, and a payment unconfirmed for the overdue window is marked
 * overdue. Safe with any number of instances: each claims one collaboration
 * at a time with `FOR UPDATE SKIP LOCKED`, in its own transaction, with its
 * own event.
 */
import { setInterval } from 'node:timers/promises';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { handleError } from '@raly/service-kit/errors';
import type { CollaborationsDependencies } from './dependencies';
import { collaborationUpdatedEvent } from './events';
import { autoApproveDue, markOverdue, type WorkState } from './work-rules';

/** Collaborations one run claims at most per sweep, so a backlog never holds a run for long. */
const SWEEP_BATCH_MAX = 200;

export interface WorkSweeps {
  /** Stops the timer and waits for a run in flight. */
  stop(): Promise<void>;
}

/**
 * Claims and changes collaborations one by one until none waits (or the batch is full).
 * @param next the cutoff of this claim and the rule to apply to what it claims
 * @returns how many changed
 */
async function sweepEach(
  dependencies: CollaborationsDependencies,
  waiting: 'review' | 'payment',
  next: () => { cutoff: Date; decide: (current: CollaborationRecord) => WorkState | null },
): Promise<number> {
  let changed = 0;
  for (let claimed = 0; claimed < SWEEP_BATCH_MAX; claimed++) {
    const { cutoff, decide } = next();
    const swept = await dependencies.collaborations.sweepOneWithEvent(
      waiting,
      cutoff,
      decide,
      collaborationUpdatedEvent,
    );
    if (!swept) break;
    if (swept.changed) changed++;
  }
  return changed;
}

/**
 * Runs both sweeps once.
 * @returns how many collaborations each changed
 */
export async function sweepWork(
  dependencies: CollaborationsDependencies,
): Promise<{ autoApproved: number; overdue: number }> {
  const { paymentOverdueMs } = dependencies.workWindows;
  const autoApproved = await sweepEach(dependencies, 'review', () => {
    const now = new Date();
    return { cutoff: now, decide: (current) => autoApproveDue(current, now) };
  });
  const overdue = await sweepEach(dependencies, 'payment', () => {
    const now = new Date();
    const cutoff = new Date(now.getTime() - paymentOverdueMs);
    return { cutoff, decide: (current) => markOverdue(current, cutoff, now) };
  });
  return { autoApproved, overdue };
}

/**
 * Starts the sweeps (first run after one interval; a failed run is logged and the next runs).
 * @param intervalMs time between runs, in ms
 */
export function startWorkSweeps(
  dependencies: CollaborationsDependencies,
  intervalMs: number,
): WorkSweeps {
  const stopping = new AbortController();
  const ticks = setInterval(intervalMs, undefined, { signal: stopping.signal });
  const runs = (async () => {
    try {
      while (!(await ticks.next()).done) {
        try {
          const changed = await sweepWork(dependencies);
          if (changed.autoApproved + changed.overdue > 0)
            dependencies.logger.info(changed, 'collaboration work swept');
        } catch (error) {
          handleError(error, dependencies.logger, { component: 'work-sweeps' });
        }
      }
    } catch (error) {
      // Stopping aborts the wait for the next tick; anything else is a fault of the timer.
      if (!stopping.signal.aborted)
        handleError(error, dependencies.logger, { component: 'work-sweeps' });
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await runs;
    },
  };
}
