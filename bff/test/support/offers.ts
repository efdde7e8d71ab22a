/**
 * Offer and application snapshots with unique ids, as services/offers would
 * publish them on `offers.offer.v1` / `offers.application.v1`, for
 * the BFF's routing tests that publish straight to Kafka.
 */
import { randomUUID } from 'node:crypto';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import { uniqueToken } from '@raly/test-support';
import type { BffConfig } from '@raly/test-support/bff';

/**
 * A read model and socket.io adapter channels of this BFF's own: other BFFs
 * on the shared stack (other runs, older code) consume the same topics and
 * would otherwise store a snapshot first (so this BFF never pushes it) and
 * push it to these sockets without this BFF's room moves.
 */
export function isolatedLive(): Partial<BffConfig> {
  const token = uniqueToken(12);
  return { READ_MODEL_KEY_PREFIX: `rm-test-${token}`, LIVE_ADAPTER_KEY: `live-test-${token}` };
}

/** An open offer of a brand, interest `Gaming`, version 1; `overrides` win. */
export function anOfferRecord(overrides: Partial<OfferRecord> = {}): OfferRecord {
  const brandId = overrides.brandId ?? randomUUID();
  const token = uniqueToken();
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    version: 1,
    brandId,
    brand: {
      id: brandId,
      username: `b${token}`,
      company: `Company ${token}`,
      profileImg: '',
      isVerified: false,
    },
    title: `Offer ${token}`,
    brief: 'A brief long enough for the offer form to take it without complaint.',
    interests: ['Gaming'],
    platforms: ['x'],
    deliverables: 'One post',
    compensation: { kind: 'fixed', amountMinor: 10_000, currency: 'USD' },
    creatorsWanted: 3,
    placesFilled: 0,
    applyBy: new Date(Date.now() + 7 * 24 * 3600_000).toISOString(),
    status: 'open',
    closedReason: null,
    created: now,
    openedAt: now,
    closedAt: null,
    ...overrides,
  };
}

/** A pending application of `creatorId` to `offer`, version 1; `overrides` win. */
export function anApplicationRecord(
  offer: OfferRecord,
  creatorId: string,
  overrides: Partial<ApplicationRecord> = {},
): ApplicationRecord {
  return {
    id: randomUUID(),
    version: 1,
    offerId: offer.id,
    brandId: offer.brandId,
    creatorId,
    offer: { id: offer.id, title: offer.title, brand: offer.brand },
    creator: {
      id: creatorId,
      username: `c${uniqueToken()}`,
      profileImg: '',
      coverImg: '',
      interests: ['Gaming'],
      socials: { x: '', instagram: '', threads: '' },
    },
    pitch: 'A pitch long enough for the application form to take it.',
    proposedRate: null,
    status: 'pending',
    created: new Date().toISOString(),
    decidedAt: null,
    ...overrides,
  };
}
