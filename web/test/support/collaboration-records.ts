/**
 * Collaboration and message snapshots (@raly/contracts/collaborations) with
 * unique ids for the web's unit and component tests, like offer-records.ts.
 */
import { randomUUID } from 'node:crypto';
import type {
  CollaborationMessageRecord,
  CollaborationParty,
  CollaborationRecord,
} from '@raly/contracts/collaborations';
import type { Deliverable } from '@raly/contracts/collaboration-work';
import { anOfferRecord } from './offer-records';

/** @returns a pending deliverable with a unique id, with `overrides` applied */
export function aDeliverable(overrides: Partial<Deliverable> = {}): Deliverable {
  return {
    id: randomUUID(),
    title: 'One video of 30 to 60 seconds',
    dueAt: null,
    status: 'pending',
    changeRequests: 0,
    reviewDueAt: null,
    submissions: [],
    reviews: [],
    ...overrides,
  };
}

/** @returns an active collaboration without messages, with `overrides` applied */
export function aCollaborationRecord(
  overrides: Partial<CollaborationRecord> = {},
): CollaborationRecord {
  const offer = anOfferRecord(overrides.brandId ? { brandId: overrides.brandId } : {});
  const creatorId = overrides.creatorId ?? randomUUID();
  const created = new Date(Date.now() - 86_400_000).toISOString();
  return {
    id: randomUUID(),
    version: 1,
    applicationId: randomUUID(),
    offerId: offer.id,
    brandId: offer.brandId,
    creatorId,
    offer: { id: offer.id, title: offer.title },
    brand: offer.brand,
    creator: { id: creatorId, username: 'gamerjane', profileImg: '' },
    terms: { deliverables: offer.deliverables, compensation: offer.compensation, agreedRate: null },
    status: 'active',
    messageCount: 0,
    lastMessageAt: null,
    unread: { brand: 0, creator: 0 },
    seenSequence: { brand: 0, creator: 0 },
    deliverables: [aDeliverable({ title: offer.deliverables })],
    payment: {
      status: 'not_due',
      amount: { amountMinor: 125_000, currency: 'USD' },
      reference: null,
      dueAt: null,
      paidAt: null,
      confirmedAt: null,
      overdue: false,
    },
    cancellation: null,
    timeline: [{ kind: 'opened', at: created, party: null, deliverableId: null }],
    reviews: { brand: null, creator: null },
    created,
    updated: created,
    ...overrides,
  };
}

/** @returns message number `sequence` of `collaboration`, sent by `party` */
export function aMessageRecord(
  collaboration: Pick<CollaborationRecord, 'id' | 'brand' | 'creator'>,
  sequence: number,
  party: CollaborationParty,
  overrides: Partial<CollaborationMessageRecord> = {},
): CollaborationMessageRecord {
  return {
    id: randomUUID(),
    version: 1,
    collaborationId: collaboration.id,
    clientId: randomUUID(),
    sequence,
    sender: {
      party,
      handle: party === 'brand' ? collaboration.brand.company : collaboration.creator.username,
    },
    body: `Message number ${sequence}`,
    created: new Date(Date.now() - (1000 - sequence) * 1000).toISOString(),
    ...overrides,
  };
}
