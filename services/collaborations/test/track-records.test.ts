/**
 * The public track records: the reviews each side received (average,
 * count) and the figures computed from the collaborations — a brand's
 * median hours to answer a submission and to pay, a creator's share of
 * deliverables handed in by the due date the brand set. Anyone reads them,
 * without a token; they name nobody.
 */
import assert from 'node:assert/strict';
import { beforeAll, describe, test } from 'vitest';
import type { BrandTrackRecord, CreatorTrackRecord } from '@raly/contracts/collaboration-reviews';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import type { RalySystem } from '@raly/test-support/system';
import { asUser, useCollaborationsSystem } from './support';
import {
  accepted,
  approve,
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
const HOUR = 3_600_000;

/** The track records as the holder of `token` (none: a visitor) reads them. */
const brandRecord = (brandId: string, token?: string) =>
  asUser(system, token)<BrandTrackRecord>('GET', `/public/brands/${brandId}/track-record`);
const creatorRecord = (creatorId: string, token?: string) =>
  asUser(system, token)<CreatorTrackRecord>('GET', `/public/creators/${creatorId}/track-record`);

/**
 * Moves a collaboration's recorded times back as if it had taken longer: each submission
 * `hoursBeforeReview[i]` hours before its answer (in deliverable, then round order), and the
 * payment's due date `hoursToPay` hours before it was marked paid.
 */
async function backdated(id: string, hoursBeforeReview: number[], hoursToPay: number) {
  const sql = system.sql.collaborations!;
  const { rows } = await sql.query<Pick<CollaborationRecord, 'deliverables' | 'payment'>>(
    'SELECT deliverables, payment FROM collaborations WHERE id = $1',
    [id],
  );
  const { deliverables, payment } = rows[0]!;
  const hours = [...hoursBeforeReview];
  for (const deliverable of deliverables)
    for (const submission of deliverable.submissions) {
      const answer = deliverable.reviews.find((review) => review.round === submission.round)!;
      submission.submittedAt = new Date(
        Date.parse(answer.reviewedAt) - hours.shift()! * HOUR,
      ).toISOString();
    }
  payment.dueAt = new Date(Date.parse(payment.paidAt!) - hoursToPay * HOUR).toISOString();
  await sql.query('UPDATE collaborations SET deliverables = $2, payment = $3 WHERE id = $1', [
    id,
    JSON.stringify(deliverables),
    JSON.stringify(payment),
  ]);
}

/** Splits a fresh collaboration into deliverables with these due dates (null: none). */
async function splitWith(dueDates: (string | null)[]) {
  const opened = await freshCollaboration(system, users);
  return accepted(
    await brandWork().setDeliverables(opened.id, {
      items: dueDates.map((dueAt, index) => ({ title: `Part ${index + 1}`, dueAt })),
    }),
  );
}

/** Hands in and approves every deliverable, pays and confirms; each side reviews with its stars. */
async function completedWith(
  collaboration: CollaborationRecord,
  stars: { byCreator: number; byBrand: number },
) {
  for (const { id } of collaboration.deliverables) {
    accepted(await creatorWork().submit(collaboration.id, id), 201);
    accepted(await brandWork().review(collaboration.id, id, approve));
  }
  accepted(await brandWork().paid(collaboration.id));
  accepted(await creatorWork().received(collaboration.id));
  accepted(await creatorWork().leaveReview(collaboration.id, { rating: stars.byCreator }));
  accepted(await brandWork().leaveReview(collaboration.id, { rating: stars.byBrand }));
}

beforeAll(async () => {
  system = harness.system;
  users = await registeredWorkUsers(system);
});

describe('the public track records', () => {
  test('when nothing happened yet, or the id names nobody, then anyone reads empty figures', async () => {
    // Act
    const brand = await brandRecord(users.otherBrand.brandId);
    const creator = await creatorRecord(users.otherCreator.userId);
    const malformed = await Promise.all([
      brandRecord('not-a-uuid'),
      creatorRecord('%00%1b'),
      creatorRecord('x'.repeat(300)),
    ]);

    // Assert
    assert.equal(brand.status, 200);
    assert.deepEqual(brand.body.data, {
      reviews: { average: null, count: 0 },
      figures: {
        medianHoursToReview: null,
        reviewedSubmissions: 0,
        medianHoursToPay: null,
        payments: 0,
      },
    });
    assert.equal(creator.status, 200);
    assert.deepEqual(creator.body.data, {
      reviews: { average: null, count: 0 },
      figures: { onTimeShare: null, deliverablesOnTime: 0, deliverablesWithDueDate: 0 },
    });
    for (const answer of malformed) assert.equal(answer.status, 200);
  });

  test('when collaborations completed with reviews, late and timely work and slow payments, then the figures are their averages, medians and shares', async () => {
    // Arrange: one deliverable due in the future (on time), one due in the past (late).
    const timed = await splitWith(['2031-05-01T12:00:00Z', '2020-01-01T12:00:00Z']);
    await completedWith(timed, { byCreator: 4, byBrand: 5 });
    await backdated(timed.id, [2, 30], 10);
    // No due dates: not counted for the share.
    const untimed = await splitWith([null]);
    await completedWith(untimed, { byCreator: 1, byBrand: 2 });
    await backdated(untimed.id, [5], 20);
    // Past its due date, not handed in, still active: late.
    await splitWith(['2021-03-01T00:00:00Z']);
    // Cancelled before its due date came: not counted.
    const cancelled = await splitWith(['2031-01-01T00:00:00Z']);
    accepted(await creatorWork().cancel(cancelled.id, { reason: 'Plans changed' }));

    // Act
    const [byVisitor, byStranger, creator] = await Promise.all([
      brandRecord(users.brand.brandId),
      brandRecord(users.brand.brandId, users.otherCreator.accessToken),
      creatorRecord(users.creator.userId),
    ]);

    // Assert
    assert.equal(byVisitor.status, 200, JSON.stringify(byVisitor.body));
    assert.deepEqual(byVisitor.body.data, {
      reviews: { average: 2.5, count: 2 },
      figures: {
        medianHoursToReview: 5,
        reviewedSubmissions: 3,
        medianHoursToPay: 15,
        payments: 2,
      },
    });
    assert.deepEqual(byStranger.body.data, byVisitor.body.data);
    assert.equal(creator.status, 200);
    assert.deepEqual(creator.body.data, {
      reviews: { average: 3.5, count: 2 },
      figures: { onTimeShare: 0.333, deliverablesOnTime: 1, deliverablesWithDueDate: 3 },
    });
    // The other side's record holds nothing of theirs.
    const other = await creatorRecord(users.otherCreator.userId);
    assert.equal(other.body.data?.reviews.count, 0);
  });
});
