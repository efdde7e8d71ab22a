/**
 * How offer and application snapshots are read: the SELECTs joining each
 * row with the public copies of its brand and creator, and the mapping of
 * those rows to `OfferRecord` / `ApplicationRecord` (@raly/contracts/offers).
 * The creator part is read from the users table when the snapshot is read,
 * so it is always the creator's current public profile.
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

/** The offer columns with its brand's summary (`o` offers, `b` brands). */
export const offerColumns = `
  o.id, o.version, o.brand_id, o.title, o.brief, o.interests, o.platforms, o.deliverables,
  o.compensation, o.creators_wanted, o.places_filled, o.apply_by, o.status, o.closed_reason,
  o.created, o.opened_at, o.closed_at,
  b.username AS brand_username, b.company AS brand_company, b.profile_img AS brand_profile_img,
  b.is_verified AS brand_is_verified`;

/** `FROM` of offer snapshots. */
export const offerSource = `offers o JOIN brands b ON b.id = o.brand_id`;

/** The application columns with its offer's title, brand summary and creator's public profile. */
export const applicationColumns = `
  a.id, a.version, a.offer_id, a.brand_id, a.creator_id, a.pitch, a.proposed_rate, a.status,
  a.created, a.decided_at, o.title AS offer_title,
  b.username AS brand_username, b.company AS brand_company, b.profile_img AS brand_profile_img,
  b.is_verified AS brand_is_verified,
  u.username AS creator_username, u.profile_img AS creator_profile_img,
  u.cover_img AS creator_cover_img, u.interests AS creator_interests,
  u.socials_x AS creator_socials_x, u.socials_instagram AS creator_socials_instagram,
  u.socials_threads AS creator_socials_threads`;

/** `FROM` of application snapshots. */
export const applicationSource = `applications a
  JOIN offers o ON o.id = a.offer_id
  JOIN brands b ON b.id = o.brand_id
  JOIN users u ON u.id = a.creator_id`;

export interface OfferRow {
  id: string;
  version: number;
  brand_id: string;
  title: string;
  brief: string;
  interests: string[];
  platforms: string[];
  deliverables: string;
  compensation: Compensation;
  creators_wanted: number;
  places_filled: number;
  apply_by: Date;
  status: OfferRecord['status'];
  closed_reason: OfferRecord['closedReason'];
  created: Date;
  opened_at: Date | null;
  closed_at: Date | null;
  brand_username: string;
  brand_company: string;
  brand_profile_img: string;
  brand_is_verified: boolean;
}

export interface ApplicationRow {
  id: string;
  version: number;
  offer_id: string;
  brand_id: string;
  creator_id: string;
  pitch: string;
  proposed_rate: Money | null;
  status: ApplicationRecord['status'];
  created: Date;
  decided_at: Date | null;
  offer_title: string;
  brand_username: string;
  brand_company: string;
  brand_profile_img: string;
  brand_is_verified: boolean;
  creator_username: string;
  creator_profile_img: string;
  creator_cover_img: string;
  creator_interests: string[];
  creator_socials_x: string;
  creator_socials_instagram: string;
  creator_socials_threads: string;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Only the spec's interests (a copy never holds others; this keeps the snapshot valid regardless). */
export const knownInterests = (list: string[]): Interest[] =>
  list.filter((value): value is Interest => (INTERESTS as readonly string[]).includes(value));

function brandSummaryOf(row: {
  brand_id: string;
  brand_username: string;
  brand_company: string;
  brand_profile_img: string;
  brand_is_verified: boolean;
}): BrandSummary {
  return {
    id: row.brand_id,
    username: row.brand_username,
    company: row.brand_company,
    profileImg: row.brand_profile_img,
    isVerified: row.brand_is_verified,
  };
}

/** An {@link OfferRow} as the `OfferRecord` snapshot. */
export function toOfferRecord(row: OfferRow): OfferRecord {
  return {
    id: row.id,
    version: row.version,
    brandId: row.brand_id,
    brand: brandSummaryOf(row),
    title: row.title,
    brief: row.brief,
    interests: knownInterests(row.interests),
    platforms: row.platforms as OfferPlatform[],
    deliverables: row.deliverables,
    compensation: row.compensation,
    creatorsWanted: row.creators_wanted,
    placesFilled: row.places_filled,
    applyBy: row.apply_by.toISOString(),
    status: row.status,
    closedReason: row.closed_reason,
    created: row.created.toISOString(),
    openedAt: iso(row.opened_at),
    closedAt: iso(row.closed_at),
  };
}

/** An {@link ApplicationRow} as the `ApplicationRecord` snapshot: the creator by public profile only. */
export function toApplicationRecord(row: ApplicationRow): ApplicationRecord {
  return {
    id: row.id,
    version: row.version,
    offerId: row.offer_id,
    brandId: row.brand_id,
    creatorId: row.creator_id,
    offer: { id: row.offer_id, title: row.offer_title, brand: brandSummaryOf(row) },
    creator: {
      id: row.creator_id,
      username: row.creator_username,
      profileImg: row.creator_profile_img,
      coverImg: row.creator_cover_img,
      interests: knownInterests(row.creator_interests),
      socials: {
        x: row.creator_socials_x,
        instagram: row.creator_socials_instagram,
        threads: row.creator_socials_threads,
      },
    },
    pitch: row.pitch,
    proposedRate: row.proposed_rate,
    status: row.status,
    created: row.created.toISOString(),
    decidedAt: iso(row.decided_at),
  };
}
