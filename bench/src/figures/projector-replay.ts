/**
 * The BFF's event projector replaying history: a second BFF process with a
 * new consumer group (which reads every topic from the beginning, docs/adr/0007)
 * is started, and the group's committed lag is polled every
 * {@link POLL_MS} ms until it has caught up (or `windowSeconds` passed).
 * Two figures, apart: the start-up and group join (spawn → first offsets
 * committed) and the steady replay rate (events committed from the first
 * poll that saw a commit until caught up ÷ that time); also the overall
 * rate counting the start-up.
 *
 * The steady rate needs a backlog that takes the projector a while: on a
 * fresh stack the topics hold only what the live rounds wrote (~5,000 events,
 * a 0.1 s steady window). So when the topics hold fewer than `minBacklog`
 * events, the difference is first written the way production writes it:
 * PATCH /users/me of identity-profile (outbox → Kafka), several in flight,
 * bounded in time.
 */
import { topics } from '@raly/contracts/events';
import { sleep, uniqueToken } from '@raly/test-support';
import { end, type BenchSystem } from '../bench-system';
import { lagWatcher } from '../kafka-lag';
import { nowMs } from '../stats';
import type { BenchUser } from '../users';
import { patchJson } from './live-latency';

export interface ProjectorReplayResult {
  /** Messages in the projected topics when the replay started. */
  backlog: number;
  /** Of those, written just before by the bench to reach `minBacklog` (identity-profile's PATCH /users/me). */
  toppedUp: number;
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

/** How many updates the top-up keeps in flight. */
const TOP_UP_IN_FLIGHT = 16;

/** Longest the top-up may write, ms. */
const TOP_UP_MAX_MS = 120_000;

/**
 * Writes `count` changes through identity-profile (each a snapshot on identity.user.v1).
 * @returns how many were acknowledged (2xx) before `TOP_UP_MAX_MS`
 */
async function topUp(system: BenchSystem, creators: BenchUser[], count: number): Promise<number> {
  const deadline = nowMs() + TOP_UP_MAX_MS;
  let next = 0;
  let acknowledged = 0;
  const worker = async () => {
    while (next < count && nowMs() < deadline) {
      const index = next++;
      const creator = creators[index % creators.length]!;
      const status = await patchJson(
        `${system.identityUrl}/users/me`,
        { authorization: `Bearer ${creator.accessToken}` },
        JSON.stringify({ phoneNumber: `+1666${String(index).padStart(7, '0')}` }),
      ).catch(() => 0);
      if (status >= 200 && status < 300) acknowledged += 1;
    }
  };
  await Promise.all(Array.from({ length: TOP_UP_IN_FLIGHT }, worker));
  return acknowledged;
}

/**
 * @param creators users whose records the top-up changes (fresh access tokens)
 * @param minBacklog fewest events the replay starts from (topped up when fewer)
 * @param windowSeconds longest the replay is watched, s
 */
export async function measureProjectorReplay(
  system: BenchSystem,
  creators: BenchUser[],
  minBacklog: number,
  windowSeconds = 60,
): Promise<ProjectorReplayResult> {
  const brokers = system.stack.kafkaBrokers;
  const groupId = `bench-replay-${uniqueToken(8)}`;
  const watcher = await lagWatcher(brokers, groupId, projected);
  try {
    // A group that has committed nothing lags by every message of the topics.
    const found = await watcher.lag();
    const topUpStarted = nowMs();
    const toppedUp = found < minBacklog ? await topUp(system, creators, minBacklog - found) : 0;
    if (toppedUp > 0)
      process.stdout.write(
        `[bench] replay backlog: ${found} events found, ${toppedUp} written through identity-profile in ${((nowMs() - topUpStarted) / 1000).toFixed(1)} s\n`,
      );
    // The outbox relay publishes within milliseconds of the commit; its last rows are awaited.
    let backlog = await watcher.lag();
    for (let waited = 0; backlog < found + toppedUp && waited < 5000; waited += POLL_MS) {
      await sleep(POLL_MS);
      backlog = await watcher.lag();
    }
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
        toppedUp,
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
