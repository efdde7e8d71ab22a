/**
 * The dashboards' collaborations summary (`@raly/contracts/collaboration-summary`):
 * each side counts what waits for it, the payments due and overdue, the
 * finished collaborations and its own unread messages only.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import type { Deliverable, DeliverableStatus } from '../src/collaboration-work';
import type { CollaborationRecord } from '../src/collaborations';
import { emptyCollaborationsSummary, summarizeCollaborations } from '../src/collaboration-summary';

const aDeliverable = (status: DeliverableStatus): Deliverable => ({
  id: `d-${status}`,
  title: 'One video',
  dueAt: null,
  status,
  changeRequests: 0,
  reviewDueAt: null,
  submissions: [],
  reviews: [],
});

/** A collaboration with just what the summary reads; `changes` win. */
const aCollaboration = (changes: Partial<CollaborationRecord> = {}) =>
  ({
    status: 'active',
    unread: { brand: 0, creator: 0 },
    deliverables: [],
    payment: { status: 'not_due', overdue: false },
    ...changes,
  }) as CollaborationRecord;

const list = [
  aCollaboration({
    deliverables: [aDeliverable('submitted'), aDeliverable('changes_requested')],
    unread: { brand: 2, creator: 1 },
  }),
  aCollaboration({
    deliverables: [aDeliverable('submitted'), aDeliverable('approved')],
  }),
  aCollaboration({
    payment: { status: 'due', overdue: true } as CollaborationRecord['payment'],
    unread: { brand: 0, creator: 3 },
  }),
  aCollaboration({ payment: { status: 'paid', overdue: false } as CollaborationRecord['payment'] }),
  aCollaboration({ status: 'completed', unread: { brand: 1, creator: 0 } }),
  aCollaboration({ status: 'cancelled', deliverables: [aDeliverable('submitted')] }),
];

describe('the collaborations summary', () => {
  test("when a brand sums its collaborations, then it waits on the submissions of active ones and counts the brand's unread", () => {
    assert.deepEqual(
      summarizeCollaborations(list, () => 'brand'),
      {
        active: 4,
        waitingForYou: 2,
        paymentDue: 2,
        paymentOverdue: 1,
        completed: 1,
        cancelled: 1,
        unreadMessages: 3,
      },
    );
  });

  test("when a creator sums the same collaborations, then it waits on the changes requested and counts the creator's unread", () => {
    const summary = summarizeCollaborations(list, () => 'creator');
    assert.equal(summary.waitingForYou, 1);
    assert.equal(summary.unreadMessages, 4);
    assert.equal(summary.active, 4);
  });

  test('when there is no collaboration, then every count is zero', () => {
    assert.deepEqual(
      summarizeCollaborations([], () => 'brand'),
      emptyCollaborationsSummary,
    );
  });
});
