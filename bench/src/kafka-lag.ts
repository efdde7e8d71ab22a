/** Consumer-group lag on the local Kafka, for benchmarks that wait for a projector. */
import { AssignerProtocol, Kafka, logLevel, type Admin } from 'kafkajs';
import { eventually } from '@raly/test-support';

/**
 * Messages of `topics` the group has not committed yet, over all partitions.
 * @returns the lag (0 when caught up)
 */
export async function consumerLag(
  brokers: string[],
  groupId: string,
  topics: string[],
): Promise<number> {
  const watcher = await lagWatcher(brokers, groupId, topics);
  try {
    return await watcher.lag();
  } finally {
    await watcher.close();
  }
}

/** Messages of `topics` that `groupId` has not committed, over all partitions, read through `admin`. */
async function groupLag(admin: Admin, groupId: string, topics: string[]): Promise<number> {
  const [ends, committed] = await Promise.all([
    Promise.all(topics.map((topic) => admin.fetchTopicOffsets(topic))),
    admin.fetchOffsets({ groupId, topics }),
  ]);
  let lag = 0;
  topics.forEach((topic, index) => {
    const partitions = committed.find((entry) => entry.topic === topic)?.partitions ?? [];
    for (const end of ends[index]!) {
      const at = partitions.find((p) => p.partition === end.partition);
      lag += Math.max(0, Number(end.high) - Math.max(Number(at?.offset ?? -1), 0));
    }
  });
  return lag;
}

/** A group's lag read again and again over one admin connection (for polling it often). */
export interface LagWatcher {
  /** Messages of the topics the group has not committed yet, now. */
  lag(): Promise<number>;
  close(): Promise<void>;
}

/** Connects an admin client that reads `groupId`'s lag on `topics` (see {@link consumerLag}). */
export async function lagWatcher(
  brokers: string[],
  groupId: string,
  topics: string[],
): Promise<LagWatcher> {
  const admin: Admin = new Kafka({ brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  return {
    lag: () => groupLag(admin, groupId, topics),
    close: () => admin.disconnect(),
  };
}

/**
 * Waits until the group has read every message of `topics`.
 * @throws Error after `timeoutMs` (default 300 000) with lag left
 */
export async function waitForCaughtUp(
  brokers: string[],
  groupId: string,
  topics: string[],
  timeoutMs = 300_000,
): Promise<void> {
  await eventually(
    `consumer group ${groupId} to catch up`,
    async () => (await consumerLag(brokers, groupId, topics)) === 0,
    { timeoutMs, intervalMs: 500 },
  );
}

/**
 * Waits until every one of `groupIds` is a stable group whose members have
 * read every message of the topics they subscribe to (read from the group's
 * member metadata, so no topic list is kept here). For groups that read from
 * the beginning (the BFF's projector): on a stack with a long history a new
 * group replays it, work that would otherwise run under the first figures
 * measured. A group that starts at the end commits nothing until a new event
 * arrives, so its lag cannot be read this way.
 * @param onProgress called with the lag left, at most every 5 s
 * @returns the ms waited
 * @throws Error after `timeoutMs` with the lag left per group
 */
export async function waitForGroupsCaughtUp(
  brokers: string[],
  groupIds: string[],
  timeoutMs: number,
  onProgress: (lagByGroup: Record<string, number | 'joining'>) => void = () => undefined,
): Promise<number> {
  const admin: Admin = new Kafka({ brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  const started = Date.now();
  let reported = started;
  try {
    for (;;) {
      const { groups } = await admin.describeGroups(groupIds);
      const lagByGroup: Record<string, number | 'joining'> = {};
      for (const group of groups) {
        const topics = new Set(
          group.members.flatMap(
            (member) => AssignerProtocol.MemberMetadata.decode(member.memberMetadata)?.topics ?? [],
          ),
        );
        if (group.state !== 'Stable' || topics.size === 0) {
          lagByGroup[group.groupId] = 'joining';
          continue;
        }
        lagByGroup[group.groupId] = await groupLag(admin, group.groupId, [...topics]);
      }
      if (Object.values(lagByGroup).every((lag) => lag === 0)) return Date.now() - started;
      if (Date.now() - started > timeoutMs)
        throw new Error(`consumer groups not caught up: ${JSON.stringify(lagByGroup)}`);
      if (Date.now() - reported >= 5000) {
        onProgress(lagByGroup);
        reported = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * Commits a group that has not started yet at the current end of every
 * partition of `topics`, so it starts there and, killed and started again,
 * resumes where it was on every partition (a group that starts "at the end"
 * without a commit would skip what a partition got while it was down), as a
 * long-lived production group does.
 * @throws Error when the group has running members (Kafka refuses the commit)
 */
export async function commitGroupAtEnds(
  brokers: string[],
  groupId: string,
  topics: string[],
): Promise<void> {
  const admin: Admin = new Kafka({ brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    for (const topic of topics) {
      const ends = await admin.fetchTopicOffsets(topic);
      await admin.setOffsets({
        groupId,
        topic,
        partitions: ends.map((end) => ({ partition: end.partition, offset: end.high })),
      });
    }
  } finally {
    await admin.disconnect();
  }
}
