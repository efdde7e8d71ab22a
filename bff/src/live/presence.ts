/**
 * Presence heartbeats (docs/architecture.md "Presence"): while a user has at
 * least one open socket on this replica, the replica publishes
 * `live.presence.seen` for them on `live.presence.v1` (key: the user id) when
 * a socket connects and then every `PRESENCE_HEARTBEAT_MS`. Nothing is sent
 * on disconnect: a consumer counts a user away once no heartbeat came for its
 * own window, so a crashed replica never leaves anyone "online". Publishing
 * is best effort: a failed send is logged and the next beat sends again.
 */
import { randomUUID } from 'node:crypto';
import type { Producer } from 'kafkajs';
import { eventTypes, topics, type Envelope, type PresenceSeen } from '@raly/contracts/events';
import { allReplicas } from '@raly/service-kit/kafka';
import type { Logger } from '@raly/service-kit/logger';
import type { LiveIo } from './live-io';

/** Users per Kafka send (one batch of messages). */
const USERS_PER_SEND = 500;

export interface PresenceBeacon {
  /** Publishes one user's heartbeat now (a socket of theirs connected). */
  seen(userId: string): void;
  /** Stops the timer and waits for a send in flight. */
  stop(): Promise<void>;
}

/** The envelope of one heartbeat: `version` is the instant in ms (newer beats are higher). */
export function presenceEnvelope(userId: string, at: Date): Envelope<PresenceSeen> {
  return {
    id: randomUUID(),
    type: eventTypes.presenceSeen,
    source: 'bff',
    subject: userId,
    time: at.toISOString(),
    version: at.getTime(),
    data: { userId, seenAt: at.toISOString() },
  };
}

/**
 * Starts the heartbeats of this replica's sockets.
 * @param io the replica's socket.io server (its own sockets only are counted)
 * @param producer a kafkajs producer; connected here, disconnected by {@link PresenceBeacon.stop}
 * @param intervalMs time between beats, in ms
 */
export function startPresenceBeacon(
  io: LiveIo,
  producer: Producer,
  intervalMs: number,
  logger: Logger,
): PresenceBeacon {
  let connected: Promise<void> | undefined;
  const connect = () => {
    connected ??= producer.connect().catch((error: unknown) => {
      connected = undefined;
      throw error;
    });
    return connected;
  };
  let inFlight = Promise.resolve();
  const publish = (userIds: string[]) => {
    if (userIds.length === 0) return;
    const at = new Date();
    inFlight = inFlight
      .then(async () => {
        await connect();
        for (let start = 0; start < userIds.length; start += USERS_PER_SEND)
          await producer.send({
            topic: topics.livePresence,
            acks: allReplicas,
            messages: userIds.slice(start, start + USERS_PER_SEND).map((userId) => ({
              key: userId,
              value: JSON.stringify(presenceEnvelope(userId, at)),
            })),
          });
      })
      .catch((error: unknown) => {
        logger.warn({ err: error, users: userIds.length }, 'presence heartbeat not published');
      });
  };
  const beat = () => {
    const userIds = new Set<string>();
    for (const socket of io.of('/').sockets.values())
      if (socket.data.caller) userIds.add(socket.data.caller.userId);
    publish([...userIds]);
  };
  const timer = setInterval(beat, intervalMs);
  timer.unref();
  return {
    seen: (userId) => publish([userId]),
    async stop() {
      clearInterval(timer);
      await inFlight;
      if (connected) await producer.disconnect().catch(() => undefined);
    },
  };
}
