/**
 * Notifications of collaborations (docs/product-spec.md "Notifications"):
 * each new entry of a collaboration's timeline tells the side it concerns
 * (a submission the brand's members; a change request, an approval, a
 * dispute or a payment marked the creator; an automatic approval or an
 * overdue payment both sides), and each message tells the other side.
 * A timeline entry is told once per person (its index names it), whatever
 * the redeliveries; messages need the collaboration's copy to know the parties.
 * Submissions waiting for review are kept for their reminders (./review-reminders).
 */
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
} from '@raly/contracts/collaborations';
import type { TimelineKind } from '@raly/contracts/collaboration-work';
import { topics, type Envelope } from '@raly/contracts/events';
import { LRUCache } from 'lru-cache';
import type { NotificationKind } from '@raly/contracts/notifications';
import type { CollaborationCopy } from '../data-access/copies';
import type { NotificationDraft } from '../data-access/inbox-repository';
import type { NotificationsDependencies } from './dependencies';
import { inboxUpdatedEvent } from './events';
import { isRecent } from './recent';
import { waitingReviewsOf } from './review-reminders';

type Side = 'brand' | 'creator';

/** The timeline entries that tell someone, and whom (`other`: the side that did not act). */
const timelineFacts: Partial<
  Record<TimelineKind, { kind: NotificationKind; to: Side[] | 'other' }>
> = {
  submitted: { kind: 'deliverable_submitted', to: ['brand'] },
  changes_requested: { kind: 'changes_requested', to: ['creator'] },
  approved: { kind: 'deliverable_approved', to: ['creator'] },
  disputed: { kind: 'review_disputed', to: ['creator'] },
  auto_approved: { kind: 'deliverable_auto_approved', to: ['brand', 'creator'] },
  paid: { kind: 'payment_marked', to: ['creator'] },
  payment_overdue: { kind: 'payment_overdue', to: ['brand', 'creator'] },
  reviewed: { kind: 'review_received', to: 'other' },
};

/** The sides an entry tells: its fact's, or the side that did not act. */
const sidesTold = (to: Side[] | 'other', actor: Side | null): Side[] =>
  to !== 'other' ? to : actor === null ? [] : [actor === 'brand' ? 'creator' : 'brand'];

/** The person ids of one side of a collaboration (the brand's: its members known here). */
async function peopleOf(
  dependencies: NotificationsDependencies,
  collaboration: Pick<CollaborationCopy, 'creatorId' | 'brandId'>,
  side: Side,
): Promise<string[]> {
  return side === 'creator'
    ? [collaboration.creatorId]
    : dependencies.copies.brandMembers(collaboration.brandId);
}

/** The copy kept of a collaboration snapshot. */
const copyOf = (collaboration: CollaborationRecord): CollaborationCopy => ({
  id: collaboration.id,
  version: collaboration.version,
  creatorId: collaboration.creatorId,
  brandId: collaboration.brandId,
  offerId: collaboration.offerId,
  offerTitle: collaboration.offer.title,
  brandName: collaboration.brand.company,
  creatorUsername: collaboration.creator.username,
});

/**
 * Per collaboration, the version and the noticed state ({@link noticedStateOf}) of the last
 * snapshot this consumer handled: a newer snapshot in the same state changes nothing here.
 */
export type SeenCollaborations = LRUCache<string, { version: number; state: string }>;

/** How many collaborations a consumer remembers the last handled state of. */
const REMEMBERED_COLLABORATIONS = 10_000;

/** A consumer's memory of the collaborations it handled ({@link notifyOfCollaboration}). */
export const seenCollaborations = (): SeenCollaborations =>
  new LRUCache({ max: REMEMBERED_COLLABORATIONS });

/**
 * What of a snapshot this service acts on: its copy (but the version), the
 * reviews waiting (the reminders) and the timeline (the facts told), as
 * text. The timeline only grows, so a state never comes back after another.
 * A message changes none of it (only the counts of messages and unread ones).
 */
const noticedStateOf = (collaboration: CollaborationRecord): string =>
  JSON.stringify([
    { ...copyOf(collaboration), version: 0 },
    waitingReviewsOf(collaboration),
    collaboration.timeline.length,
    collaboration.timeline.at(-1) ?? null,
  ]);

/**
 * Handles `collaborations.collaboration.opened|updated`: keeps the copy,
 * then tells each side of the recent timeline entries that concern it (the
 * other side's public name as the counterpart).
 * @param seen this consumer's memory: a snapshot newer than the last one
 *   handled, in the same noticed state (most often a message's new counts), is
 *   skipped without a statement — its copy, reminders and facts are the ones
 *   already stored and told
 */
export async function notifyOfCollaboration(
  dependencies: NotificationsDependencies,
  event: Envelope<CollaborationRecord>,
  seen?: SeenCollaborations,
): Promise<void> {
  const collaboration = event.data;
  const state = noticedStateOf(collaboration);
  const last = seen?.get(collaboration.id);
  if (last && last.version < collaboration.version && last.state === state) {
    seen!.set(collaboration.id, { version: collaboration.version, state });
    return;
  }
  const copy = copyOf(collaboration);
  // Only a newer snapshot moves the reminders (an older one would bring back reviewed work).
  if (await dependencies.copies.saveCollaboration(copy))
    await dependencies.reviewReminders.sync(collaboration.id, waitingReviewsOf(collaboration));
  const members = new Map<Side, string[]>();
  const drafts: NotificationDraft[] = [];
  for (const [index, entry] of collaboration.timeline.entries()) {
    const fact = timelineFacts[entry.kind];
    if (!fact || !isRecent(dependencies, entry.at)) continue;
    for (const side of sidesTold(fact.to, entry.party)) {
      if (!members.has(side)) members.set(side, await peopleOf(dependencies, copy, side));
      for (const recipientId of members.get(side)!)
        drafts.push({
          recipientId,
          kind: fact.kind,
          source: {
            fromTopic: topics.collaborationsCollaboration,
            aggregateId: collaboration.id,
            version: collaboration.version,
            occurrence: `timeline:${index}`,
          },
          offerId: collaboration.offerId,
          applicationId: collaboration.applicationId,
          collaborationId: collaboration.id,
          title: copy.offerTitle,
          counterpart: side === 'brand' ? copy.creatorUsername : copy.brandName,
        });
    }
  }
  await dependencies.inboxes.deliver(drafts, inboxUpdatedEvent);
  const remembered = seen?.get(collaboration.id);
  if (seen && (!remembered || remembered.version < collaboration.version))
    seen.set(collaboration.id, { version: collaboration.version, state });
}

/**
 * Handles `collaborations.message.sent`: tells the other side (a creator's
 * message the brand's members; a brand's the creator), named by the sender's
 * public handle. The text itself is never copied into an item. A message of
 * a collaboration not known here (this consumer started after it opened) is
 * skipped: waiting for a snapshot that may never come would hold up every
 * event behind it, and the collaborations service publishes a collaboration
 * before any of its messages. The copy and the recipients are read in one
 * statement (`Copies.collaborationWithSide`).
 */
export async function notifyOfMessage(
  dependencies: NotificationsDependencies,
  event: Envelope<CollaborationMessageRecord>,
): Promise<void> {
  const message = event.data;
  if (!isRecent(dependencies, message.created)) return;
  const side: Side = message.sender.party === 'creator' ? 'brand' : 'creator';
  const found = await dependencies.copies.collaborationWithSide(message.collaborationId, side);
  if (!found) {
    dependencies.logger.warn(
      { collaborationId: message.collaborationId, messageId: message.id },
      'message of an unknown collaboration: nobody notified',
    );
    return;
  }
  const { collaboration, people: recipients } = found;
  await dependencies.inboxes.deliver(
    recipients.map((recipientId) => ({
      recipientId,
      kind: 'message_received',
      source: {
        fromTopic: topics.collaborationsMessage,
        aggregateId: message.id,
        version: message.version,
        occurrence: 'sent',
      },
      offerId: collaboration.offerId,
      applicationId: null,
      collaborationId: collaboration.id,
      title: collaboration.offerTitle,
      counterpart: message.sender.handle,
    })),
    inboxUpdatedEvent,
  );
}
