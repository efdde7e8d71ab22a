import { describe, test } from 'vitest';
import assert from 'node:assert/strict';
import {
  applyCollaborationToList,
  applyMessageToList,
  totalUnread,
} from '../../src/lib/collaboration-live.ts';
import {
  addMessage,
  lastSeenOwnSequence,
  messagesOf,
  stillOutgoing,
  type MessageHistory,
  type OutgoingMessage,
} from '../../src/features/collaborations/utils/conversation.ts';
import { aCollaborationRecord, aMessageRecord } from '../support/collaboration-records.ts';

const collaboration = aCollaborationRecord();
const message = (sequence: number, party: 'brand' | 'creator' = 'creator') =>
  aMessageRecord(collaboration, sequence, party);
const sequencesOf = (history: MessageHistory) =>
  history.pages.map((page) => page.items.map((item) => item.sequence));

describe('a conversation history', () => {
  test('when a new message arrives, then it joins the newest page in order, once', () => {
    const history: MessageHistory = {
      pages: [
        { items: [message(4), message(3)], nextBefore: 3 },
        { items: [message(2), message(1)], nextBefore: null },
      ],
      pageParams: [null, 3],
    };
    const fifth = message(5);

    const once = addMessage(history, fifth);
    const twice = addMessage(once, fifth);

    assert.deepEqual(sequencesOf(once), [
      [5, 4, 3],
      [2, 1],
    ]);
    assert.equal(twice, once);
  });

  test('when the stored message of a send and its push both arrive, then it is held once (same clientId)', () => {
    const sent = message(1);
    const history: MessageHistory = {
      pages: [{ items: [sent], nextBefore: null }],
      pageParams: [null],
    };

    const withPush = addMessage(history, { ...sent, id: 'another-copy' });

    assert.equal(withPush, history);
  });

  test('when nothing was read yet, then a message changes nothing', () => {
    const empty: MessageHistory = { pages: [], pageParams: [] };
    assert.equal(addMessage(empty, message(1)), empty);
  });

  test('when pages overlap, then each message reads once, oldest first', () => {
    const three = message(3);
    const history: MessageHistory = {
      pages: [
        { items: [message(4), three], nextBefore: 3 },
        { items: [three, message(2)], nextBefore: null },
      ],
      pageParams: [null, 4],
    };
    assert.deepEqual(
      messagesOf(history).map((item) => item.sequence),
      [2, 3, 4],
    );
    assert.deepEqual(messagesOf(undefined), []);
  });

  test('when an outgoing message is stored, then it is no longer shown as outgoing', () => {
    const stored = message(1);
    const outgoing: OutgoingMessage[] = [
      {
        clientId: stored.clientId,
        body: stored.body,
        confirmContactDetails: false,
        state: 'sending',
      },
      { clientId: 'still-going', body: 'Hi', confirmContactDetails: false, state: 'failed' },
    ];
    assert.deepEqual(
      stillOutgoing(outgoing, [stored]).map((each) => each.clientId),
      ['still-going'],
    );
  });

  test("when the other side has seen up to a sequence, then 'Seen' goes under the reader's last message at or below it", () => {
    const messages = [message(1), message(2, 'brand'), message(3), message(4)];
    assert.equal(lastSeenOwnSequence(messages, 'creator', 3), 3);
    assert.equal(lastSeenOwnSequence(messages, 'creator', 2), 1);
    assert.equal(lastSeenOwnSequence(messages, 'creator', 0), null);
    assert.equal(lastSeenOwnSequence(messages, 'brand', 4), 2);
  });
});

describe('the collaborations list', () => {
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

  test('when a newer record arrives, then it replaces the old and the list keeps the newest activity first', () => {
    const older = aCollaborationRecord({ lastMessageAt: at(30) });
    const newer = aCollaborationRecord({ lastMessageAt: at(10) });
    const list = [newer, older];

    const next = applyCollaborationToList(list, { ...older, version: 2, lastMessageAt: at(1) });

    assert.deepEqual(
      next.map((each) => [each.id, each.version]),
      [
        [older.id, 2],
        [newer.id, 1],
      ],
    );
  });

  test('when a stale record arrives, then the list stays as it is', () => {
    const current = aCollaborationRecord({ version: 3 });
    const list = [current];
    assert.equal(applyCollaborationToList(list, { ...current, version: 2 }), list);
  });

  test('when a collaboration opens, then it joins the list', () => {
    const known = aCollaborationRecord({ created: at(60) });
    const opened = aCollaborationRecord({ created: at(0) });
    assert.deepEqual(
      applyCollaborationToList([known], opened).map((each) => each.id),
      [opened.id, known.id],
    );
  });

  test('when a message is pushed, then its collaboration counts it (one more unread for the other side) and moves to the top, once', () => {
    const quiet = aCollaborationRecord({ lastMessageAt: at(30), version: 4, messageCount: 2 });
    const busy = aCollaborationRecord({ lastMessageAt: at(10) });
    const list = [busy, quiet];
    const pushed = aMessageRecord(quiet, 3, 'brand', {
      created: at(0),
      collaborationVersion: 5,
    });

    const next = applyMessageToList(list, pushed);
    const again = next && applyMessageToList(next, pushed);

    assert.deepEqual(
      next?.map((each) => [each.id, each.version, each.messageCount, each.unread.creator]),
      [
        [quiet.id, 5, 3, 1],
        [busy.id, 1, 0, 0],
      ],
    );
    assert.equal(again, next);
    assert.equal(
      applyMessageToList(list, aMessageRecord(aCollaborationRecord(), 1, 'brand')),
      list,
    );
  });

  test('when a pushed message skips a change of its collaboration, then the list must be read again (null)', () => {
    const known = aCollaborationRecord({ version: 4, messageCount: 2 });
    const skipped = aMessageRecord(known, 4, 'creator', { collaborationVersion: 7 });
    assert.equal(applyMessageToList([known], skipped), null);
  });

  test("when counting unread messages, then only the user's own side counts", () => {
    const creatorId = 'creator-1';
    const brandId = 'brand-1';
    const list = [
      aCollaborationRecord({ creatorId, unread: { brand: 5, creator: 2 } }),
      aCollaborationRecord({ brandId, unread: { brand: 7, creator: 1 } }),
    ];
    assert.equal(totalUnread(list, { id: creatorId, brand: null }), 2);
    assert.equal(totalUnread(list, { id: 'member-1', brand: { id: brandId, isAdmin: false } }), 7);
    assert.equal(totalUnread(list, { id: 'someone-else', brand: null }), 0);
  });
});
