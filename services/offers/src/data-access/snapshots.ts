/**
 * How offer and application snapshots are read: the relations each row is
 * read with (its brand's summary; an application's offer title and creator's
 * public profile) and the mapping to `OfferRecord` / `ApplicationRecord`
 * (@raly/contracts/offers). The creator part is read when the snapshot is
 * read, so it is always the creator's current public profile; the offer part
 * carries the offer's deliverables and compensation, the terms a
 * collaboration freezes when the application is accepted.
 */
import { INTERESTS, type Interest } from '@raly/contracts/constants';
import type {
  ApplicationRecord,
  BrandSummary,
  Compensation,
  Money,
  OfferPlatform,
  OfferRecord,
} from '@raly/contracts/offers';
import type { Application, Brand, Offer, Prisma, User } from '../generated/prisma/client';

const brandSummary = {
  select: { username: true, company: true, profileImg: true, isVerified: true },
} satisfies Prisma.BrandDefaultArgs;

/** The relations of an offer snapshot: its brand's summary. */
export const offerSnapshot = { brand: brandSummary } satisfies Prisma.OfferInclude;

/**
 * The relations of an application snapshot: its offer's title, terms and brand, its creator's
 * public profile.
 */
export const applicationSnapshot = {
  offer: { select: { title: true, deliverables: true, compensation: true, brand: brandSummary } },
  creator: {
    select: {
      username: true,
      profileImg: true,
      coverImg: true,
      interests: true,
      socialsX: true,
      socialsInstagram: true,
      socialsThreads: true,
    },
  },
} satisfies Prisma.ApplicationInclude;

type BrandSummaryRow = Pick<Brand, 'username' | 'company' | 'profileImg' | 'isVerified'>;

/** An offer row with {@link offerSnapshot}. */
export type OfferRow = Offer & { brand: BrandSummaryRow };

/** An application row with {@link applicationSnapshot}. */
export type ApplicationRow = Application & {
  offer: Pick<Offer, 'title' | 'deliverables' | 'compensation'> & { brand: BrandSummaryRow };
  creator: Pick<
    User,
    | 'username'
    | 'profileImg'
    | 'coverImg'
    | 'interests'
    | 'socialsX'
    | 'socialsInstagram'
    | 'socialsThreads'
  >;
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Only the spec's interests (a copy never holds others; this keeps the snapshot valid regardless). */
export const knownInterests = (list: string[]): Interest[] =>
  list.filter((value): value is Interest => (INTERESTS as readonly string[]).includes(value));

const brandSummaryOf = (brandId: string, brand: BrandSummaryRow): BrandSummary => ({
  id: brandId,
  username: brand.username,
  company: brand.company,
  profileImg: brand.profileImg,
  isVerified: brand.isVerified,
});

/** An {@link OfferRow} as the `OfferRecord` snapshot. */
export function toOfferRecord(row: OfferRow): OfferRecord {
  return {
    id: row.id,
    version: row.version,
    brandId: row.brandId,
    brand: brandSummaryOf(row.brandId, row.brand),
    title: row.title,
    brief: row.brief,
    interests: knownInterests(row.interests),
    platforms: row.platforms as OfferPlatform[],
    deliverables: row.deliverables,
    compensation: row.compensation as unknown as Compensation,
    creatorsWanted: row.creatorsWanted,
    placesFilled: row.placesFilled,
    applyBy: row.applyBy.toISOString(),
    status: row.status,
    closedReason: row.closedReason,
    created: row.created.toISOString(),
    openedAt: iso(row.openedAt),
    closedAt: iso(row.closedAt),
  };
}

/**
 * An {@link ApplicationRow} as the `ApplicationRecord` snapshot: the creator by public profile
 * only; the deciding member by handle only (`decidedBy`, when they had one).
 */
export function toApplicationRecord(row: ApplicationRow): ApplicationRecord {
  const { creator } = row;
  return {
    id: row.id,
    version: row.version,
    offerId: row.offerId,
    brandId: row.brandId,
    creatorId: row.creatorId,
    offer: {
      id: row.offerId,
      title: row.offer.title,
      brand: brandSummaryOf(row.brandId, row.offer.brand),
      deliverables: row.offer.deliverables,
      compensation: row.offer.compensation as unknown as Compensation,
    },
    creator: {
      id: row.creatorId,
      username: creator.username,
      profileImg: creator.profileImg,
      coverImg: creator.coverImg,
      interests: knownInterests(creator.interests),
      socials: {
        x: creator.socialsX,
        instagram: creator.socialsInstagram,
        threads: creator.socialsThreads,
      },
    },
    pitch: row.pitch,
    proposedRate: row.proposedRate as Money | null,
    status: row.status,
    created: row.created.toISOString(),
    decidedAt: iso(row.decidedAt),
    ...(row.decidedByHandle && { decidedBy: { memberHandle: row.decidedByHandle } }),
  };
}
