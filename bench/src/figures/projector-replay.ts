/**
 * The BFF's event projector replaying history: a second BFF process with a
 * new consumer group (which reads every topic from the beginning, docs/adr/0007)
 * is started, and the group's committed lag is polled every
 * {@link POLL_MS} ms until it has caught up (or `windowSeconds` passed).
 * Two figures, apart: the start-up and group join (spawn → first offsets
 * committed) and the steady replay rate (events committed from the first
 * poll that saw a commit until caught up ÷ that time); also the overall
 * rate counting the start-up.
 */
import { topics } from '@raly/contracts/events';
import { sleep, uniqueToken } from '@raly/test-support';
import { end, type BenchSystem } from '../bench-system';
import { lagWatcher } from '../kafka-lag';
import { nowMs } from '../stats';

export interface ProjectorReplayResult {
  /** Messages in the projected topics when the replay started. */
  backlog: number;
  /** Messages the replaying BFF committed in the window. */
  events: number;
  /** Spawn → caught up (or the window's end). */
  seconds: number;
  /** `events / seconds`: the start-up and join included. */
  eventsPerSecond: number;
  /** Spawn → the first poll that saw committed offsets (process start-up, Kafka connect, group join, first batch). */
  joinSeconds: number;
  /** Events committed after that first poll, and the time they took. */
  steadyEvents: number;
  steadySeconds: number;
  /** `steadyEvents / steadySeconds`: the projector's own rate. */
  steadyEventsPerSecond: number;
}

/** How often the lag is read, ms (one admin connection, a few ms a read). */
const POLL_MS = 50;

/** The topics the BFF projects. */
const projected = [
  topics.identityUser,
  topics.brandBrand,
  topics.offersOffer,
  topics.offersApplication,
];

export async function measureProjectorReplay(
  system: BenchSystem,
  windowSeconds = 60,
): Promise<ProjectorReplayResult> {
  const brokers = system.stack.kafkaBrokers;
  const groupId = `bench-replay-${uniqueToken(8)}`;
  const watcher = await lagWatcher(brokers, groupId, projected);
  try {
    // A group that has committed nothing lags by every message of the topics.
    const backlog = await watcher.lag();
    const started = nowMs();
    const replaying = await system.startAnotherBff(groupId);
    try {
      let lag = backlog;
      let firstCommit: { at: number; lag: number } | undefined;
      while (lag > 0 && nowMs() - started < windowSeconds * 1000) {
        await sleep(POLL_MS);
        lag = await watcher.lag();
        if (!firstCommit && lag < backlog) firstCommit = { at: nowMs(), lag };
      }
      const finished = nowMs();
      const seconds = (finished - started) / 1000;
      const events = backlog - lag;
      const steadyEvents = firstCommit ? firstCommit.lag - lag : 0;
      const steadySeconds = firstCommit ? (finished - firstCommit.at) / 1000 : 0;
      return {
        backlog,
        events,
        seconds,
        eventsPerSecond: events / seconds,
        joinSeconds: ((firstCommit?.at ?? finished) - started) / 1000,
        steadyEvents,
        steadySeconds,
        steadyEventsPerSecond: steadySeconds > 0 ? steadyEvents / steadySeconds : 0,
      };
    } finally {
      await end(replaying);
    }
  } finally {
    await watcher.close();
  }
}
