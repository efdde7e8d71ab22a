/** The chaos run's check of collaboration messages: history exactly once, the other party's tabs or catch-up. */
import assert from 'node:assert/strict';
import type { CollaborationMessageRecord } from '@raly/contracts/collaborations';
import { liveEvents } from '@raly/contracts/live';
import { describe, test } from 'vitest';
import { checkMessages, type AcknowledgedMessage } from '../src/chaos/messages';
import type { ChaosUser } from '../src/chaos/load';
import type { OpenCollaboration } from '../src/open-collaborations';
import type { TrackedSocket } from '../src/socket-worker';

const user = (userId: string, brandId?: string): ChaosUser => ({
  userId,
  email: `${userId}@raly.test`,
  password: 'secret',
  accessToken: 'token',
  ...(brandId ? { brandId } : {}),
});
const creator = user('creator-1');
const member = user('member-1', 'brand-1');
const collaboration: OpenCollaboration = {
  id: 'collaboration-1',
  applicationId: 'application-1',
  creator,
  brand: { ...member, brandId: 'brand-1' },
};

/** A tab that holds the messages of `messageIds`. */
const tab = (...messageIds: string[]): TrackedSocket => ({
  connected: true,
  reconnects: 0,
  records: Object.fromEntries(
    messageIds.map((id) => [`${liveEvents.message}:${id}`, { version: 1, record: { id } }]),
  ),
  arrivals: [],
  duplicates: 0,
  outOfOrder: 0,
  disconnects: {},
  refusals: {},
});

const stored = (id: string, clientId: string, sequence: number): CollaborationMessageRecord => ({
  id,
  version: 1,
  collaborationId: collaboration.id,
  clientId,
  sequence,
  sender: { party: 'creator', handle: 'creator' },
  body: 'Hello',
  created: new Date(0).toISOString(),
});

const acknowledged = (
  messageId: string,
  clientId: string,
  by: AcknowledgedMessage['by'],
): AcknowledgedMessage => ({
  collaborationId: collaboration.id,
  clientId,
  messageId,
  sequence: 1,
  by,
  at: 0,
});

describe('chaos message check', () => {
  test('when every acknowledged message is stored once and the other party had it live or in the history, then none is lost or duplicated', () => {
    // Arrange: m1 from the creator reached both brand tabs; m2 from the brand missed one creator tab
    const histories = new Map([[collaboration.id, [stored('m2', 'c2', 2), stored('m1', 'c1', 1)]]]);
    const sockets = [tab('m2'), tab(), tab('m1'), tab('m1')];
    const owners = [creator, creator, member, member];

    // Act
    const check = checkMessages(
      [collaboration],
      [acknowledged('m1', 'c1', 'creator'), acknowledged('m2', 'c2', 'brand')],
      histories,
      sockets,
      owners,
    );

    // Assert
    assert.deepEqual(
      { ...check, examples: [] },
      {
        acknowledged: 2,
        lost: 0,
        duplicates: 0,
        pushedToEveryTab: 1,
        caughtUp: 1,
        examples: [],
      },
    );
  });

  test('when an acknowledged message is missing from the history and a client id is stored twice, then one is lost and one duplicated', () => {
    // Arrange: c1 stored twice (two ids), c3 acknowledged but never stored
    const histories = new Map([
      [collaboration.id, [stored('m1b', 'c1', 2), stored('m1', 'c1', 1)]],
    ]);
    const sockets = [tab('m1'), tab('m1')];
    const owners = [creator, member];

    // Act
    const check = checkMessages(
      [collaboration],
      [acknowledged('m1', 'c1', 'brand'), acknowledged('m3', 'c3', 'creator')],
      histories,
      sockets,
      owners,
    );

    // Assert: the extra copy, and the acknowledged m1 whose client id also holds another id
    assert.equal(check.lost, 1);
    assert.equal(check.duplicates, 2);
    assert.match(check.examples.join('\n'), /m3 .*missing/);
  });
});
