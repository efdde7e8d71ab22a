/**
 * The one freshness path of the read model (docs/adr/0007): the command
 * answer and the Kafka projector both write through `applySnapshot`, which
 * stores a snapshot in the real Redis only when it is newer and pushes it
 * exactly then. The push is recorded here; that a push reaches the right
 * sockets is live.test.ts's.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test, beforeAll, afterAll } from 'vitest';
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
} from '@raly/contracts/collaborations';
import { eventTypes, topics, type Envelope, type EventType } from '@raly/contracts/events';
import type { UserRecord } from '@raly/contracts/records';
import { Redis } from 'ioredis';
import {
  createReadModel,
  type AggregateKind,
  type ReadModel,
  type RecordByKind,
} from '../src/data-access/read-model';
import { createRecordStore, type LivePush, type RecordStore } from '../src/domain/record-store';
import { subscriptions } from '../src/messaging/subscriptions';
import { aUserRecord, anEnvelope, testStack } from '@raly/test-support';

/** A push that records `[kind, id, version]` of every snapshot it is handed. */
function recordingPush(): LivePush & {
  pushed: [AggregateKind, string, number][];
  /** `[message id, creator id, brand id]` of every message pushed. */
  messages: [string, string, string][];
} {
  const pushed: [AggregateKind, string, number][] = [];
  const messages: [string, string, string][] = [];
  return {
    pushed,
    messages,
    push<K extends AggregateKind>(kind: K, record: RecordByKind[K]) {
      pushed.push([kind, record.id, record.version]);
    },
    pushMessage(message, parties) {
      messages.push([message.id, parties.creatorId, parties.brandId]);
    },
  };
}

/** A collaboration snapshot with the fields the record store reads (the rest is the service's). */
function aCollaboration(): CollaborationRecord {
  return {
    id: randomUUID(),
    version: 1,
    creatorId: randomUUID(),
    brandId: randomUUID(),
  } as CollaborationRecord;
}

/** A message of `collaborationId`. */
function aMessageOf(collaborationId: string): CollaborationMessageRecord {
  return {
    id: randomUUID(),
    version: 1,
    collaborationId,
    clientId: randomUUID(),
    sequence: 1,
    sender: { party: 'creator', handle: 'maker' },
    body: 'Hello',
    created: new Date().toISOString(),
  };
}

/** The projector's handler of a collaboration event type, as the consumer runner calls it. */
function collaborationProjector(records: RecordStore, eventType: EventType) {
  const subscription = subscriptions(records).find(
    (line) => line.topic === topics.collaborationsCollaboration && line.eventType === eventType,
  );
  assert.ok(subscription, `the BFF subscribes to ${eventType}`);
  return (record: CollaborationRecord) =>
    subscription.handle(anEnvelope(record, eventType) as Envelope<unknown>);
}

/** The projector's handler of `identity.user.updated`, as the consumer runner calls it. */
function userUpdatedProjector(records: RecordStore) {
  const subscription = subscriptions(records).find(
    (line) => line.topic === topics.identityUser && line.eventType === eventTypes.userUpdated,
  );
  assert.ok(subscription, 'the BFF subscribes to identity.user.updated');
  return (record: UserRecord) =>
    subscription.handle(anEnvelope(record, eventTypes.userUpdated) as Envelope<unknown>);
}

describe('applySnapshot, the one writer of the read model', () => {
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis((await testStack()).redisUrl);
  });

  afterAll(() => {
    redis?.disconnect();
  });

  /** A record store on the real Redis read model, counting the read model's writes. */
  const aStore = () => {
    const live = recordingPush();
    const readModel = createReadModel(redis);
    const writes = { count: 0, reads: 0, claims: 0 };
    const counted: ReadModel = {
      get: (kind, id) => {
        writes.reads += 1;
        return readModel.get(kind, id);
      },
      getJson: (kind, id) => readModel.getJson(kind, id),
      getUserJson: (userId) => readModel.getUserJson(userId),
      claimMessagePush: (messageId) => {
        writes.claims += 1;
        return readModel.claimMessagePush(messageId);
      },
      apply: (kind, record) => {
        writes.count += 1;
        return readModel.apply(kind, record);
      },
    };
    return { live, writes, records: createRecordStore(counted, () => live) };
  };

  test('when the projector receives the snapshot the command answer already applied, then it is ignored without a Redis write and pushed no second time', async () => {
    // Arrange
    const { live, writes, records } = aStore();
    const answered = aUserRecord({ version: 2, firstName: 'Answered' });
    const project = userUpdatedProjector(records);

    // Act
    const appliedByAnswer = await records.applySnapshot('user', answered);
    await project(answered);

    // Assert
    assert.equal(appliedByAnswer, true);
    assert.deepEqual(live.pushed, [['user', answered.id, 2]]);
    assert.equal(writes.count, 1, 'only the command answer wrote to Redis');
    assert.equal((await records.get('user', answered.id))?.firstName, 'Answered');
  });

  test('when versions arrive out of order from both writers, then each newer version is pushed exactly once', async () => {
    // Arrange
    const { live, records } = aStore();
    const record = aUserRecord({ version: 1 });
    const project = userUpdatedProjector(records);
    const at = (version: number) => ({ ...record, version });

    // Act: answer v1, event v1, answer v3, event v2 (late), event v3, event v4
    const outcomes = [
      await records.applySnapshot('user', at(1)),
      await project(at(1)).then(() => 'projected'),
      await records.applySnapshot('user', at(3)),
      await project(at(2)).then(() => 'projected'),
      await project(at(3)).then(() => 'projected'),
      await project(at(4)).then(() => 'projected'),
    ];

    // Assert
    assert.deepEqual(outcomes, [true, 'projected', true, 'projected', 'projected', 'projected']);
    assert.deepEqual(
      live.pushed.map(([, , version]) => version),
      [1, 3, 4],
    );
    assert.equal((await records.get('user', record.id))?.version, 4);
  });

  test('when another BFF instance already stored a version, then this instance neither stores nor pushes it again', async () => {
    // Arrange: two instances on the same Redis
    const first = aStore();
    const second = aStore();
    const record = aUserRecord({ version: 5, firstName: 'First' });
    await first.records.applySnapshot('user', record);

    // Act
    const appliedBySecond = await second.records.applySnapshot('user', {
      ...record,
      firstName: 'Second',
    });

    // Assert
    assert.equal(appliedBySecond, false);
    assert.deepEqual(second.live.pushed, []);
    assert.equal((await second.records.get('user', record.id))?.firstName, 'First');
  });

  test("when a collaboration's messages are pushed, then they go to its parties, read from Redis at most once per instance", async () => {
    // Arrange: one instance applied the collaboration's snapshot, another never saw it
    const applying = aStore();
    const other = aStore();
    const collaboration = aCollaboration();
    await applying.records.applySnapshot('collaboration', collaboration);
    const [first, second] = [aMessageOf(collaboration.id), aMessageOf(collaboration.id)];

    // Act
    const outcomes = [
      await applying.records.pushMessage(first),
      await other.records.pushMessage(second),
    ];
    const unknown = await other.records.pushMessage(aMessageOf(randomUUID()));

    // Assert
    assert.deepEqual(outcomes, [true, true]);
    assert.equal(unknown, false, 'a collaboration nobody stored pushes nothing');
    const pushedTo = (message: CollaborationMessageRecord) => [
      message.id,
      collaboration.creatorId,
      collaboration.brandId,
    ];
    assert.deepEqual(applying.live.messages, [pushedTo(first)]);
    assert.deepEqual(other.live.messages, [pushedTo(second)]);
    assert.equal(applying.writes.reads, 0, 'the applying instance remembers the parties');
    assert.equal(other.writes.reads, 2, 'once for its message, once for the unknown one');
  });

  test("when a message is pushed from the send's answer on one instance and from its event on another, then it is pushed once, and the event its own instance answered asks Redis nothing", async () => {
    // Arrange: two replicas that both know the collaboration
    const answering = aStore();
    const projecting = aStore();
    const collaboration = aCollaboration();
    await answering.records.applySnapshot('collaboration', collaboration);
    await projecting.records.applySnapshot('collaboration', collaboration);
    const message = aMessageOf(collaboration.id);

    // Act: the answer, then the event on the other replica, then on the answering one
    const fromAnswer = await answering.records.pushMessage(message);
    const fromEvent = await projecting.records.pushMessage(message);
    const fromEventAgain = await projecting.records.pushMessage(message);
    const claimsBefore = answering.writes.claims;
    const fromOwnEvent = await answering.records.pushMessage(message);

    // Assert
    assert.deepEqual(
      [fromAnswer, fromEvent, fromEventAgain, fromOwnEvent],
      [true, false, false, false],
    );
    assert.deepEqual(answering.live.messages, [
      [message.id, collaboration.creatorId, collaboration.brandId],
    ]);
    assert.deepEqual(projecting.live.messages, []);
    assert.equal(projecting.writes.claims, 1, 'a refused claim is remembered');
    assert.equal(answering.writes.claims, claimsBefore, 'its own push is remembered');
  });

  test('when the projector gets a collaboration a message was counted on, then it is stored and not pushed (the tabs count the pushed message); a seen mark or a step of the work is stored and pushed', async () => {
    // Arrange
    const { live, records } = aStore();
    const opened = aCollaboration();
    await records.applySnapshot('collaboration', opened);
    const at = (version: number) => ({ ...opened, version });

    // Act
    await collaborationProjector(records, eventTypes.collaborationConversationUpdated)(at(2));
    await collaborationProjector(records, eventTypes.collaborationSeenMarked)(at(3));
    await collaborationProjector(records, eventTypes.collaborationUpdated)(at(4));
    await collaborationProjector(records, eventTypes.collaborationConversationUpdated)(at(5));

    // Assert
    assert.deepEqual(live.pushed, [
      ['collaboration', opened.id, 1],
      ['collaboration', opened.id, 3],
      ['collaboration', opened.id, 4],
    ]);
    assert.equal((await records.get('collaboration', opened.id))?.version, 5);
  });
});
