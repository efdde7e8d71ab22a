/**
 * The BFF's event projector replaying history: a second BFF process with a
 * new consumer group (which reads every topic from the beginning, docs/adr/0007)
 * is started, and the time until its lag is zero gives events per second
 * (from the spawn, so its start-up counts against it).
 */
import { topics } from '@raly/contracts/events';
import { uniqueToken } from '@raly/test-support';
import { end, type BenchSystem } from '../bench-system';
import { consumerLag, waitForCaughtUp } from '../kafka-lag';
import { nowMs } from '../stats';

export interface ProjectorReplayResult {
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

/** The topics the BFF projects. */
const projected = [topics.identityUser, topics.brandBrand, topics.offersOffer, topics.offersApplication];

export async function measureProjectorReplay(system: BenchSystem): Promise<ProjectorReplayResult> {
  const groupId = `bench-replay-${uniqueToken(8)}`;
  // A group that has committed nothing lags by every message of the topics.
  const events = await consumerLag(system.stack.kafkaBrokers, groupId, projected);
  const started = nowMs();
  const replaying = await system.startAnotherBff(groupId);
  try {
    await waitForCaughtUp(system.stack.kafkaBrokers, groupId, projected, 600_000);
    const seconds = (nowMs() - started) / 1000;
    return { events, seconds, eventsPerSecond: events / seconds };
  } finally {
    await end(replaying);
  }
}
