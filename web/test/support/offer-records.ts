/**
 * Offer and application snapshots (@raly/contracts/offers) with unique ids
 * for the web's unit and component tests. Kept here, not in
 * @raly/test-support, because only the web's tests build them by hand.
 */
import { randomUUID } from 'node:crypto';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** @returns an open offer of a verified brand, paying USD 1,250.00, with `overrides` applied */
export function anOfferRecord(overrides: Partial<OfferRecord> = {}): OfferRecord {
  const id = randomUUID();
  const brandId = overrides.brandId ?? randomUUID();
  return {
    id,
    version: 1,
    brandId,
    brand: {
      id: brandId,
      username: 'acmebrand',
      company: 'Acme Inc',
      profileImg: '',
      isVerified: true,
    },
    title: 'Launch video for our new game',
    brief: 'Make a short video showing the first level of our new game to your audience.',
    interests: ['Gaming'],
    platforms: ['x'],
    deliverables: 'One video of 30 to 60 seconds.',
    compensation: { kind: 'fixed', amountMinor: 125_000, currency: 'USD' },
    creatorsWanted: 3,
    placesFilled: 0,
    applyBy: inDays(10),
    status: 'open',
    closedReason: null,
    created: inDays(-1),
    openedAt: inDays(-1),
    closedAt: null,
    ...overrides,
  };
}

/** @returns a pending application to `offer` by a creator with a public profile only */
export function anApplicationRecord(
  offer: OfferRecord,
  overrides: Partial<ApplicationRecord> = {},
): ApplicationRecord {
  const creatorId = overrides.creatorId ?? randomUUID();
  return {
    id: randomUUID(),
    version: 1,
    offerId: offer.id,
    brandId: offer.brandId,
    creatorId,
    offer: { id: offer.id, title: offer.title, brand: offer.brand },
    creator: {
      id: creatorId,
      username: 'gamerjane',
      profileImg: '',
      coverImg: '',
      interests: ['Gaming'],
      socials: { x: '@gamerjane', instagram: '', threads: '' },
    },
    pitch: 'I stream this genre every day to an audience of fifty thousand players.',
    proposedRate: null,
    status: 'pending',
    created: new Date().toISOString(),
    decidedAt: null,
    ...overrides,
  };
}
