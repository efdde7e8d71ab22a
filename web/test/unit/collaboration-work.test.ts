import { describe, test } from 'vitest';
import assert from 'node:assert/strict';
import {
  cancelReasonRequired,
  paymentActionOf,
  roundText,
  timelineText,
  workWaitingFor,
} from '../../src/features/collaborations/utils/work.ts';
import { aCollaborationRecord, aDeliverable } from '../support/collaboration-records.ts';

const submission = {
  round: 1,
  link: 'https://video.example.org/cut',
  note: '',
  submittedAt: '2026-11-20T10:00:00Z',
};

describe('the work waiting for a side', () => {
  test('when one deliverable waits for work and another for review, then each side counts its own', () => {
    const collaboration = aCollaborationRecord({
      deliverables: [
        aDeliverable({ status: 'pending' }),
        aDeliverable({ status: 'changes_requested', changeRequests: 1 }),
        aDeliverable({ status: 'submitted', submissions: [submission] }),
        aDeliverable({ status: 'approved' }),
      ],
    });

    assert.deepEqual(
      {
        creator: workWaitingFor(collaboration, 'creator'),
        brand: workWaitingFor(collaboration, 'brand'),
      },
      { creator: 2, brand: 1 },
    );
  });

  test('when the payment is due, then it waits for the brand; marked paid, for the creator; an ended collaboration waits for no one', () => {
    const base = aCollaborationRecord({ deliverables: [aDeliverable({ status: 'approved' })] });
    const due = { ...base, payment: { ...base.payment, status: 'due' as const } };
    const paid = { ...base, payment: { ...base.payment, status: 'paid' as const } };

    assert.deepEqual(
      [paymentActionOf(due, 'brand'), paymentActionOf(due, 'creator')],
      ['mark-paid', null],
    );
    assert.deepEqual(
      [paymentActionOf(paid, 'brand'), paymentActionOf(paid, 'creator')],
      [null, 'confirm'],
    );
    assert.equal(workWaitingFor({ ...paid, status: 'cancelled' }, 'creator'), 0);
  });
});

describe('the reason to cancel', () => {
  test('when nothing was handed in, then only the creator owes one; after a submission, both do', () => {
    const before = aCollaborationRecord();
    const after = aCollaborationRecord({
      deliverables: [aDeliverable({ status: 'submitted', submissions: [submission] })],
    });

    assert.deepEqual(
      [before, after].map((each) => [
        cancelReasonRequired(each, 'brand'),
        cancelReasonRequired(each, 'creator'),
      ]),
      [
        [false, true],
        [true, true],
      ],
    );
  });
});

describe('the words of the work', () => {
  test('when changes were asked twice, then the round reads "Changes requested, round 2 of 3"; none, no round', () => {
    assert.equal(roundText({ changeRequests: 2 }), 'Changes requested, round 2 of 3');
    assert.equal(roundText({ changeRequests: 0 }), null);
  });

  test('when an entry names a deliverable, then its title is quoted; one no longer listed reads "a deliverable"; a cancel names who', () => {
    const titles = new Map([['d1', 'Launch video']]);
    const at = '2026-11-20T10:00:00Z';

    assert.deepEqual(
      [
        timelineText({ kind: 'submitted', at, party: 'creator', deliverableId: 'd1' }, titles),
        timelineText({ kind: 'approved', at, party: 'brand', deliverableId: 'gone' }, titles),
        timelineText({ kind: 'cancelled', at, party: 'creator', deliverableId: null }, titles),
      ],
      [
        'The creator handed in “Launch video”',
        'The brand approved a deliverable',
        'The creator cancelled the collaboration',
      ],
    );
  });
});
