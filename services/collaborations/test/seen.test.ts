/**
 * Seen marks and unread counts: each side's unread count is the other
 * side's messages above its seen mark; a mark only moves forward and never
 * past the last message, and only a move raises
 * `collaborations.collaboration.seen-marked`.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll } from 'vitest';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { eventTypes } from '@raly/contracts/events';
import { messages } from '@raly/contracts/messages';
import { type RalySystem, registeredBrand, registeredCreator } from '@raly/test-support/system';
import {
  aMessage,
  asUser,
  openedCollaboration,
  publishedCollaboration,
  useCollaborationsSystem,
} from './support';

const harness = useCollaborationsSystem();
let system: RalySystem;
let brand: Awaited<ReturnType<typeof registeredBrand>>;
let creator: Awaited<ReturnType<typeof registeredCreator>>;

beforeAll(async () => {
  system = harness.system;
  [brand, creator] = await Promise.all([registeredBrand(system), registeredCreator(system)]);
});

/** Sends `count` messages as the holder of `token`. */
async function send(token: string, collaborationId: string, count: number) {
  for (let index = 0; index < count; index += 1) {
    const answer = await asUser(system, token)(
      'POST',
      `/collaborations/${collaborationId}/messages`,
      aMessage(),
    );
    assert.equal(answer.status, 201);
  }
}

/** Marks seen as the holder of `token`; answers the collaboration after it. */
async function seen(token: string, collaborationId: string, sequence: number) {
  const answer = await asUser(system, token)<CollaborationRecord>(
    'POST',
    `/collaborations/${collaborationId}/seen`,
    { sequence },
  );
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data!;
}

/** The event types the outbox recorded for a collaboration, oldest first. */
async function recordedEvents(collaborationId: string) {
  const { rows } = await system.sql.collaborations!.query<{ event_type: string }>(
    'SELECT event_type FROM outbox WHERE key = $1 ORDER BY sequence',
    [collaborationId],
  );
  return rows.map((row) => row.event_type);
}

describe('seen and unread', () => {
  test('when the brand reads the creator’s messages part way, then all, then its unread count follows and the creator sees its seen mark', async () => {
    // Arrange
    const collaboration = await openedCollaboration(system, { creator, brand });
    await send(creator.accessToken, collaboration.id, 3);
    await send(brand.accessToken, collaboration.id, 1);

    // Act
    const partWay = await seen(brand.accessToken, collaboration.id, 2);
    const all = await seen(brand.accessToken, collaboration.id, 4);

    // Assert
    assert.deepEqual(partWay.seenSequence, { brand: 2, creator: 0 });
    assert.deepEqual(partWay.unread, { brand: 1, creator: 1 });
    assert.deepEqual(all.seenSequence, { brand: 4, creator: 0 });
    assert.deepEqual(all.unread, { brand: 0, creator: 1 });
    assert.equal(all.version, partWay.version + 1);
    const asCreatorSees = await asUser(system, creator.accessToken)<CollaborationRecord>(
      'GET',
      `/collaborations/${collaboration.id}`,
    );
    assert.deepEqual(asCreatorSees.body.data, all);
    const event = await publishedCollaboration(harness, all);
    assert.equal(event.type, eventTypes.collaborationSeenMarked);
    assert.deepEqual(event.data, all);
  });

  test('when a side marks a lower sequence, the same one, or one past the last message, then the mark never moves back nor past the last, and only a move is published', async () => {
    // Arrange
    const collaboration = await openedCollaboration(system, { creator, brand });
    await send(brand.accessToken, collaboration.id, 2);
    const first = await seen(creator.accessToken, collaboration.id, 1);
    const before = await recordedEvents(collaboration.id);

    // Act
    const lower = await seen(creator.accessToken, collaboration.id, 0);
    const same = await seen(creator.accessToken, collaboration.id, 1);
    const past = await seen(creator.accessToken, collaboration.id, 99);

    // Assert
    assert.deepEqual(lower, first);
    assert.deepEqual(same, first);
    assert.equal(past.seenSequence.creator, 2);
    assert.equal(past.unread.creator, 0);
    assert.equal(past.version, first.version + 1);
    assert.deepEqual(await recordedEvents(collaboration.id), [
      ...before,
      eventTypes.collaborationSeenMarked,
    ]);
  });

  test('when a seen mark is not a whole number from 0, or the body has other keys, then 400', async () => {
    // Arrange
    const collaboration = await openedCollaboration(system, { creator, brand });

    for (const body of [
      {},
      { sequence: -1 },
      { sequence: 1.5 },
      { sequence: '2' },
      { sequence: 1, x: 1 },
    ]) {
      // Act
      const answer = await asUser(system, creator.accessToken)(
        'POST',
        `/collaborations/${collaboration.id}/seen`,
        body,
      );

      // Assert
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.error?.code, 'invalid-argument');
      assert.notEqual(answer.body.error?.message, messages.collaborationNotFound);
    }
  });
});
