/**
 * The payment Raly records (it moves no money): due once the last
 * deliverable is approved, marked paid by the brand, its receipt confirmed
 * by the creator, which completes the collaboration; a product needs no
 * payment and completes on the last approval. Every change is one
 * `collaborations.collaboration.updated` with a higher version.
 */
import assert from 'node:assert/strict';
import { beforeAll, describe, test } from 'vitest';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { eventTypes } from '@raly/contracts/events';
import { messages } from '@raly/contracts/messages';
import { envelopeOf, eventually } from '@raly/test-support';
import type { RalySystem } from '@raly/test-support/system';
import { anAcceptedApplication, publishedCollaboration, useCollaborationsSystem } from './support';
import {
  accepted,
  approve,
  approvedThroughout,
  assertRefused,
  freshCollaboration,
  registeredWorkUsers,
  workAs,
  type WorkUsers,
} from './work-support';

const harness = useCollaborationsSystem();
let system: RalySystem;
let users: WorkUsers;
const brandWork = () => workAs(system, users.brand.accessToken);
const creatorWork = () => workAs(system, users.creator.accessToken);

beforeAll(async () => {
  system = harness.system;
  users = await registeredWorkUsers(system);
});

/** A collaboration split in two deliverables, the first approved. */
async function halfApproved() {
  const opened = await freshCollaboration(system, users);
  const split = accepted(
    await brandWork().setDeliverables(opened.id, {
      items: [{ title: 'Video' }, { title: 'Post' }],
    }),
  );
  const [first, second] = split.deliverables;
  accepted(await creatorWork().submit(split.id, first!.id), 201);
  const approvedOnce = accepted(await brandWork().review(split.id, first!.id, approve));
  return { collaboration: approvedOnce, last: second! };
}

describe('the payment', () => {
  test('when the last deliverable is approved, then the agreed amount falls due', async () => {
    const { collaboration, last } = await halfApproved();
    assert.equal(collaboration.payment.status, 'not_due');
    accepted(await creatorWork().submit(collaboration.id, last.id), 201);

    // Act
    const approvedAll = accepted(await brandWork().review(collaboration.id, last.id, approve));

    // Assert
    const { payment } = approvedAll;
    assert.equal(payment.status, 'due');
    assert.deepEqual(payment.amount, { amountMinor: 40_000, currency: 'EUR' });
    assert.equal(payment.dueAt, approvedAll.timeline.at(-1)!.at);
    assert.equal(payment.overdue, false);
    assert.deepEqual(
      approvedAll.timeline.slice(-2).map(({ kind, party }) => [kind, party]),
      [
        ['approved', 'brand'],
        ['payment_due', null],
      ],
    );
    assert.equal(approvedAll.status, 'active');
  });

  test('when the brand marks it paid and the creator confirms receipt, then the collaboration completes', async () => {
    const approvedAll = await approvedThroughout(
      system,
      users,
      await freshCollaboration(system, users),
    );

    // Act
    const paid = accepted(await brandWork().paid(approvedAll.id, { reference: ' INV-2031-17 ' }));
    const completed = accepted(await creatorWork().received(approvedAll.id));

    // Assert
    assert.equal(paid.payment.status, 'paid');
    assert.equal(paid.payment.reference, 'INV-2031-17');
    assert.ok(paid.payment.paidAt);
    assert.equal(completed.status, 'completed');
    assert.equal(completed.payment.status, 'confirmed');
    assert.ok(completed.payment.confirmedAt);
    assert.deepEqual(
      completed.timeline.slice(-3).map(({ kind, party }) => [kind, party]),
      [
        ['paid', 'brand'],
        ['payment_confirmed', 'creator'],
        ['completed', null],
      ],
    );
  });

  test('when each step comes out of turn or from the wrong side, then it is refused with its message', async () => {
    const { collaboration, last } = await halfApproved();

    // Act and Assert: nothing is due yet.
    assertRefused(await brandWork().paid(collaboration.id), 409, messages.paymentNotDue);
    assertRefused(await creatorWork().received(collaboration.id), 409, messages.paymentNotMarked);
    accepted(await creatorWork().submit(collaboration.id, last.id), 201);
    accepted(await brandWork().review(collaboration.id, last.id, approve));
    // Due, not marked paid.
    assertRefused(await creatorWork().received(collaboration.id), 409, messages.paymentNotMarked);
    assertRefused(await creatorWork().paid(collaboration.id), 403, messages.onlyTheBrandCan);
    assertRefused(
      await brandWork().paid(collaboration.id, { reference: 'r'.repeat(201) }),
      400,
      messages.paymentReferenceTooLong,
      'reference',
    );
    accepted(await brandWork().paid(collaboration.id));
    assertRefused(await brandWork().paid(collaboration.id), 409, messages.paymentNotDue);
    assertRefused(await brandWork().received(collaboration.id), 403, messages.onlyTheCreatorCan);
    accepted(await creatorWork().received(collaboration.id));
    // Completed.
    assertRefused(
      await creatorWork().received(collaboration.id),
      409,
      messages.paymentAlreadyConfirmed,
    );
    assertRefused(await brandWork().paid(collaboration.id), 409, messages.collaborationNotActive);
    assertRefused(
      await creatorWork().submit(collaboration.id, last.id),
      409,
      messages.collaborationNotActive,
    );
    assertRefused(
      await brandWork().cancel(collaboration.id, { reason: 'Too late' }),
      409,
      messages.collaborationNotActive,
    );
  });

  test('when the offer paid a fixed fee and no rate was proposed, then the fee is what falls due', async () => {
    const opened = await freshCollaboration(system, users, { proposedRate: null });

    // Act
    const approvedAll = await approvedThroughout(system, users, opened);

    // Assert
    assert.equal(opened.payment.status, 'not_due');
    assert.deepEqual(approvedAll.payment.amount, { amountMinor: 50_000, currency: 'USD' });
    assert.equal(approvedAll.payment.status, 'due');
  });

  test('when the compensation is a product, then nothing is due and the last approval completes the collaboration', async () => {
    const application = anAcceptedApplication(users);
    const opened = await freshCollaboration(system, users, {
      offer: {
        ...application.offer,
        deliverables: '- Unboxing video\n- Two stories',
        compensation: { kind: 'product', description: 'A pair of running shoes' },
      },
      proposedRate: null,
    });
    assert.equal(opened.payment.status, 'not_applicable');
    assert.equal(opened.payment.amount, null);
    assert.deepEqual(
      opened.deliverables.map(({ title }) => title),
      ['Unboxing video', 'Two stories'],
    );

    // Act
    const completed = await approvedThroughout(system, users, opened);

    // Assert
    assert.equal(completed.status, 'completed');
    assert.equal(completed.payment.status, 'not_applicable');
    assert.deepEqual(
      completed.timeline.slice(-2).map(({ kind }) => kind),
      ['approved', 'completed'],
    );
    assertRefused(await brandWork().paid(completed.id), 409, messages.collaborationNotActive);
  });
});

describe('events', () => {
  test('when a collaboration goes from opening to completion, then each change is one updated event with the next version', async () => {
    const opened = await freshCollaboration(system, users);
    const approvedAll = await approvedThroughout(system, users, opened);
    accepted(await brandWork().paid(approvedAll.id));
    const completed = accepted(await creatorWork().received(approvedAll.id));

    // Act
    await publishedCollaboration(harness, completed);
    const events = await eventually('the collaboration’s events', () => {
      const found = harness.collaborationEvents.messages
        .filter((message) => message.key?.toString() === opened.id)
        .map((message) => envelopeOf<CollaborationRecord>(message));
      return found.length >= completed.version && found;
    });

    // Assert: opened, submitted, approved, paid, confirmed.
    assert.equal(completed.version, 5);
    assert.deepEqual(
      events.map(({ type, version }) => [type, version]),
      [
        [eventTypes.collaborationOpened, 1],
        [eventTypes.collaborationUpdated, 2],
        [eventTypes.collaborationUpdated, 3],
        [eventTypes.collaborationUpdated, 4],
        [eventTypes.collaborationUpdated, 5],
      ],
    );
    assert.deepEqual(events.at(-1)!.data, completed);
  });
});
