/**
 * The BFF's event projector replaying history: a second BFF process with a
 * new consumer group (which reads every topic from the beginning, docs/adr/0007)
 * is started; events per second = messages it committed ÷ seconds since its
 * spawn (start-up counts against it), over at most `windowSeconds` or until
 * it has caught up.
 */
import { topics } from '@raly/contracts/events';
import { sleep, uniqueToken } from '@raly/test-support';
import { end, type BenchSystem } from '../bench-system';
import { consumerLag } from '../kafka-lag';
import { nowMs } from '../stats';

export interface ProjectorReplayResult {
  /** Messages in the projected topics when the replay started. */
  backlog: number;
  /** Messages the replaying BFF committed in the window. */
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

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
  // A group that has committed nothing lags by every message of the topics.
  const backlog = await consumerLag(brokers, groupId, projected);
  const started = nowMs();
  const replaying = await system.startAnotherBff(groupId);
  try {
    let lag = backlog;
    while (lag > 0 && nowMs() - started < windowSeconds * 1000) {
      await sleep(250);
      lag = await consumerLag(brokers, groupId, projected);
    }
    const seconds = (nowMs() - started) / 1000;
    const events = backlog - lag;
    return { backlog, events, seconds, eventsPerSecond: events / seconds };
  } finally {
    await end(replaying);
  }
}
