/**
 * The work's sweeps, with windows of about a second: a submission the brand
 * leaves unreviewed is approved automatically (by Raly, `auto_approved`), and
 * a payment left unconfirmed is marked overdue once, for both sides to see.
 */
import assert from 'node:assert/strict';
import { beforeAll, describe, test } from 'vitest';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import { eventually, sleep } from '@raly/test-support';
import type { RalySystem } from '@raly/test-support/system';
import { asUser, useCollaborationsSystem } from './support';
import {
  accepted,
  approve,
  assertRefused,
  freshCollaboration,
  registeredWorkUsers,
  workAs,
  type WorkUsers,
} from './work-support';

const SWEEP_MS = 200;
const harness = useCollaborationsSystem({
  env: {
    COLLABORATIONS_SWEEP_MS: String(SWEEP_MS),
    // One second each: long enough for a test to act first, short enough to wait for.
    COLLABORATIONS_REVIEW_WINDOW_HOURS: String(1 / 3600),
    COLLABORATIONS_PAYMENT_OVERDUE_DAYS: String(1 / 86_400),
  },
});
let system: RalySystem;
let users: WorkUsers;
const brandWork = () => workAs(system, users.brand.accessToken);
const creatorWork = () => workAs(system, users.creator.accessToken);

beforeAll(async () => {
  system = harness.system;
  users = await registeredWorkUsers(system);
});

/** The collaboration as its creator reads it once `ready` holds. */
const readWhen = (id: string, what: string, ready: (record: CollaborationRecord) => boolean) =>
  eventually(what, async () => {
    const answer = await asUser(system, users.creator.accessToken)<CollaborationRecord>(
      'GET',
      `/collaborations/${id}`,
    );
    return answer.body.data && ready(answer.body.data) && answer.body.data;
  });

describe('the sweeps', () => {
  test('when the brand leaves a submission unreviewed past the review window, then it is approved automatically and the payment falls due', async () => {
    const collaboration = await freshCollaboration(system, users);
    const deliverableId = collaboration.deliverables[0]!.id;
    const submitted = accepted(await creatorWork().submit(collaboration.id, deliverableId), 201);
    const reviewDueAt = Date.parse(submitted.deliverables[0]!.reviewDueAt!);
    assert.ok(reviewDueAt - Date.now() <= 1000);

    // Act
    const approved = await readWhen(
      collaboration.id,
      'the automatic approval',
      (record) => record.deliverables[0]!.status === 'approved',
    );

    // Assert
    const deliverable = approved.deliverables[0]!;
    assert.deepEqual(
      deliverable.reviews.map(({ round, decision, automatic }) => ({ round, decision, automatic })),
      [{ round: 1, decision: 'approved', automatic: true }],
    );
    assert.ok(Date.parse(deliverable.reviews[0]!.reviewedAt) >= reviewDueAt);
    assert.equal(deliverable.reviewDueAt, null);
    const autoApproved = approved.timeline.find(({ kind }) => kind === 'auto_approved');
    assert.deepEqual(autoApproved && { ...autoApproved, at: typeof autoApproved.at }, {
      kind: 'auto_approved',
      at: 'string',
      party: null,
      deliverableId,
    });
    assert.equal(approved.payment.status, 'due');
    // The brand's late review finds nothing to review.
    assertRefused(
      await brandWork().review(collaboration.id, deliverableId, approve),
      409,
      messages.deliverableNotSubmitted,
    );
  });

  test('when a due payment stays unconfirmed past the overdue window, then it is marked overdue once, until the creator confirms it', async () => {
    const collaboration = await freshCollaboration(system, users);
    const deliverableId = collaboration.deliverables[0]!.id;
    accepted(await creatorWork().submit(collaboration.id, deliverableId), 201);
    const due = accepted(await brandWork().review(collaboration.id, deliverableId, approve));
    assert.equal(due.payment.overdue, false);

    // Act
    const overdue = await readWhen(
      collaboration.id,
      'the overdue payment',
      (record) => record.payment.overdue,
    );
    await sleep(SWEEP_MS * 5);
    const paid = accepted(await brandWork().paid(collaboration.id));
    const confirmed = accepted(await creatorWork().received(collaboration.id));

    // Assert
    assert.equal(overdue.payment.status, 'due');
    assert.equal(overdue.version, due.version + 1);
    assert.equal(overdue.timeline.at(-1)?.kind, 'payment_overdue');
    assert.equal(overdue.timeline.at(-1)?.party, null);
    // Later sweeps leave it as it is: one mark, no further version.
    assert.equal(paid.version, overdue.version + 1);
    assert.equal(paid.payment.overdue, true);
    assert.equal(paid.timeline.filter(({ kind }) => kind === 'payment_overdue').length, 1);
    assert.equal(confirmed.status, 'completed');
    assert.equal(confirmed.payment.overdue, false);
  });
});
