/**
 * Collaborations in Postgres (the only module that writes the
 * `collaborations` table but for a message's counters, ./message-repository).
 * Every write commits the change, the incremented version and its events in
 * one transaction; a change of an existing collaboration runs under its row
 * lock ({@link lockCollaboration}), so messages and seen marks of one
 * conversation apply one after the other.
 */
import type {
  CollaborationParty,
  CollaborationRecord,
  CollaborationTerms,
} from '@raly/contracts/collaborations';
import type { BrandSummary } from '@raly/contracts/offers';
import { uniqueViolationOf } from '@raly/service-kit/errors';
import type { RaiseEvent } from '@raly/service-kit/outbox';
import type { WorkState } from '../domain/work-rules';
import type { CollaborationWork } from '../domain/work';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import type { CollaborationsEventWriter, Transaction } from './database';
import { isUuid } from './ids';
import { otherParty, partyColumns, toCollaborationRecord } from './snapshots';

/** What an accepted application opens a collaboration with (frozen from its snapshot). */
export interface NewCollaboration {
  id: string;
  applicationId: string;
  offerId: string;
  offerTitle: string;
  brandId: string;
  brand: BrandSummary;
  creatorId: string;
  creatorUsername: string;
  creatorProfileImg: string;
  terms: CollaborationTerms | null;
  /** The deliverables, payment and timeline it opens with. */
  work: CollaborationWork;
}

export interface CollaborationRepository {
  /**
   * Opens the collaboration of an application once: inserts it and records
   * `event(snapshot)` in one transaction, unless one exists for the application.
   * @returns the application's collaboration, and whether this call opened it
   */
  openOnce(
    collaboration: NewCollaboration,
    event: RaiseEvent<CollaborationRecord>,
  ): Promise<{ collaboration: CollaborationRecord; opened: boolean }>;
  /** @returns the collaboration, or null (also for an id that is not a uuid) */
  findById(id: string): Promise<CollaborationRecord | null>;
  /**
   * A side's collaborations, the newest activity (opening, last message) first.
   * @param side the creator's id, or the brand's id
   * @param limit at most this many
   */
  listFor(
    side: { creatorId: string } | { brandId: string },
    limit: number,
  ): Promise<CollaborationRecord[]>;
  /**
   * Under the row lock, moves `party`'s seen mark to `max(mark, min(sequence,
   * messageCount))` and recounts its unread (the other side's messages above
   * the mark); records `event(snapshot)` only when the mark moved.
   * @returns the snapshot after the change, or null when no such collaboration exists
   */
  markSeenWithEvent(
    id: string,
    party: CollaborationParty,
    sequence: number,
    event: RaiseEvent<CollaborationRecord>,
  ): Promise<CollaborationRecord | null>;
  /**
   * Under the row lock, applies `decide(snapshot)` to the collaboration's work
   * (version + 1) and records `event(snapshot)`; an error `decide` throws
   * rolls everything back and propagates.
   * @returns the snapshot after the change, or null when no such collaboration exists
   */
  changeWorkWithEvent(
    id: string,
    decide: (current: CollaborationRecord) => WorkState,
    event: RaiseEvent<CollaborationRecord>,
  ): Promise<CollaborationRecord | null>;
  /**
   * @returns the deliverable and round an image was handed in with, or null when the image is
   *   not one of the collaboration's (also for an id that is not a uuid)
   */
  findImage(
    collaborationId: string,
    imageId: string,
  ): Promise<{ deliverableId: string; round: number } | null>;
  /**
   * Claims one active collaboration waiting for a sweep, skipping rows another
   * transaction holds (`FOR UPDATE SKIP LOCKED`), and in that one transaction
   * applies `decide(snapshot)` and records `event(snapshot)` (version + 1).
   * @param waiting `review`: a submission's review due by `cutoff`; `payment`: a
   *   payment due (or paid), unconfirmed and not overdue since `cutoff` or earlier
   * @returns null when none waits, else the snapshot after the change (`changed` null when
   *   `decide` found nothing to change: the row's keys were stale and are recomputed)
   */
  sweepOneWithEvent(
    waiting: 'review' | 'payment',
    cutoff: Date,
    decide: (current: CollaborationRecord) => WorkState | null,
    event: RaiseEvent<CollaborationRecord>,
  ): Promise<{ changed: CollaborationRecord | null } | null>;
}

/**
 * The columns of a work state, with the two the sweeps key on: the earliest
 * review due of a submitted deliverable, and when an unsettled payment fell due.
 */
function workColumns(state: WorkState) {
  const active = state.status === 'active';
  const reviewDueAt = state.deliverables
    .filter((deliverable) => deliverable.status === 'submitted' && deliverable.reviewDueAt)
    .map((deliverable) => deliverable.reviewDueAt!)
    .sort()[0];
  const { payment } = state;
  const unsettled =
    active && (payment.status === 'due' || payment.status === 'paid') && !payment.overdue;
  return {
    status: state.status,
    deliverables: state.deliverables,
    payment: state.payment,
    cancellation: state.cancellation ?? Prisma.DbNull,
    timeline: state.timeline,
    reviews: state.reviews,
    reviewDueAt: active && reviewDueAt ? new Date(reviewDueAt) : null,
    paymentUnsettledSince: unsettled && payment.dueAt ? new Date(payment.dueAt) : null,
  } satisfies Prisma.CollaborationUpdateInput;
}

/** Writes `state` to a collaboration locked in `tx` (version + 1). @returns the snapshot after it */
async function updateLockedWork(tx: Transaction, id: string, state: WorkState) {
  const row = await tx.collaboration.update({
    where: { id },
    data: { ...workColumns(state), version: { increment: 1 }, updated: new Date() },
  });
  await indexImages(tx, id, state);
  return toCollaborationRecord(row);
}

/** Records every submission image of `state` in `deliverable_images` (those already there stay). */
async function indexImages(tx: Transaction, collaborationId: string, state: WorkState) {
  const data = state.deliverables.flatMap((deliverable) =>
    deliverable.submissions
      .filter((submission) => submission.imageId)
      .map((submission) => ({
        collaborationId,
        imageId: submission.imageId!,
        deliverableId: deliverable.id,
        round: submission.round,
      })),
  );
  if (data.length > 0) await tx.deliverableImage.createMany({ data, skipDuplicates: true });
}

/** Locks one collaboration a sweep waits on (see `sweepOneWithEvent`). @returns its id, or null */
async function claimWaiting(tx: Transaction, waiting: 'review' | 'payment', cutoff: Date) {
  const rows =
    waiting === 'review'
      ? await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM collaborations
           WHERE review_due_at <= ${cutoff} AND status = 'active'
           ORDER BY review_due_at LIMIT 1 FOR UPDATE SKIP LOCKED`
      : await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM collaborations
           WHERE payment_unsettled_since <= ${cutoff} AND status = 'active'
           ORDER BY payment_unsettled_since LIMIT 1 FOR UPDATE SKIP LOCKED`;
  return rows[0]?.id ?? null;
}

/**
 * Locks a collaboration's row for the rest of `tx` (`SELECT … FOR UPDATE`:
 * Prisma has no row locks) and reads it.
 * @param id a uuid (checked by the caller)
 * @returns the row as it is under the lock, or null when no such collaboration exists
 */
export async function lockCollaboration(tx: Transaction, id: string) {
  const rows = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM collaborations WHERE id = ${id}::uuid FOR UPDATE`;
  if (rows.length === 0) return null;
  return tx.collaboration.findUniqueOrThrow({ where: { id } });
}

/** The repository over the service's Prisma client; `events` for every write. */
export function collaborationRepository(
  prisma: PrismaClient,
  events: CollaborationsEventWriter,
): CollaborationRepository {
  const byApplication = async (applicationId: string) => {
    const row = await prisma.collaboration.findUnique({ where: { applicationId } });
    return row && toCollaborationRecord(row);
  };
  return {
    async openOnce(collaboration, event) {
      const existing = await byApplication(collaboration.applicationId);
      if (existing) return { collaboration: existing, opened: false };
      const { terms, brand, work, ...columns } = collaboration;
      try {
        const opened = await events.transaction(async (tx, record) => {
          const row = await tx.collaboration.create({
            data: { ...columns, brand, ...(terms && { terms }), ...work },
          });
          const snapshot = toCollaborationRecord(row);
          await record(event(snapshot));
          return snapshot;
        });
        return { collaboration: opened, opened: true };
      } catch (error) {
        // Another consumer opened it between the look-up and the insert.
        if (uniqueViolationOf(error)?.constraint === 'collaborations_application_id_key') {
          const winner = await byApplication(collaboration.applicationId);
          if (winner) return { collaboration: winner, opened: false };
        }
        throw error;
      }
    },
    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await prisma.collaboration.findUnique({ where: { id } });
      return row && toCollaborationRecord(row);
    },
    async listFor(side, limit) {
      const rows = await prisma.collaboration.findMany({
        where: side satisfies Prisma.CollaborationWhereInput,
        orderBy: [{ activityAt: 'desc' }, { id: 'desc' }],
        take: limit,
      });
      return rows.map(toCollaborationRecord);
    },
    async markSeenWithEvent(id, party, sequence, event) {
      if (!isUuid(id)) return null;
      return events.transaction(async (tx, record) => {
        const current = await lockCollaboration(tx, id);
        if (!current) return null;
        const columns = partyColumns[party];
        const seen = Math.max(
          current[columns.seenSequence],
          Math.min(sequence, current.messageCount),
        );
        if (seen === current[columns.seenSequence]) return toCollaborationRecord(current);
        const unread = await tx.collaborationMessage.count({
          where: { collaborationId: id, senderParty: otherParty(party), sequence: { gt: seen } },
        });
        const row = await tx.collaboration.update({
          where: { id },
          data: {
            [columns.seenSequence]: seen,
            [columns.unread]: unread,
            version: { increment: 1 },
            updated: new Date(),
          },
        });
        const snapshot = toCollaborationRecord(row);
        await record(event(snapshot));
        return snapshot;
      });
    },
    async changeWorkWithEvent(id, decide, event) {
      if (!isUuid(id)) return null;
      return events.transaction(async (tx, record) => {
        const current = await lockCollaboration(tx, id);
        if (!current) return null;
        const snapshot = await updateLockedWork(tx, id, decide(toCollaborationRecord(current)));
        await record(event(snapshot));
        return snapshot;
      });
    },
    async findImage(collaborationId, imageId) {
      if (!isUuid(collaborationId)) return null;
      return prisma.deliverableImage.findUnique({
        where: { collaborationId_imageId: { collaborationId, imageId } },
        select: { deliverableId: true, round: true },
      });
    },
    async sweepOneWithEvent(waiting, cutoff, decide, event) {
      return events.transaction(async (tx, record) => {
        const id = await claimWaiting(tx, waiting, cutoff);
        if (!id) return null;
        const current = toCollaborationRecord(
          await tx.collaboration.findUniqueOrThrow({ where: { id } }),
        );
        const next = decide(current);
        if (!next) {
          // Its keys were stale: recompute them (no change, no version) so the claim moves on.
          const { reviewDueAt, paymentUnsettledSince } = workColumns(current);
          await tx.collaboration.update({
            where: { id },
            data: { reviewDueAt, paymentUnsettledSince },
          });
          return { changed: null };
        }
        const snapshot = await updateLockedWork(tx, id, next);
        await record(event(snapshot));
        return { changed: snapshot };
      });
    },
  };
}
