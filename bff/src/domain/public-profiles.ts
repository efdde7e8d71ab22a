/**
 * Public profiles (docs/api.md "Public profiles"): a creator's
 * (`/user/<username>`, from identity-profile's public endpoint) and a
 * brand's with its open offers (`/brand/<username>`, from the brand
 * service's public profile and the offers service's public list). Anyone may
 * read them, signed in or not, so they carry public fields only: never a
 * first name, last name, e-mail or phone number (spec preamble). Each also
 * carries its track record from services/collaborations: the reviews
 * received (average, count) and the figures computed from the
 * collaborations, asked at the same time as the profile's other parts.
 */
import type { PublicBrandPage, PublicCreatorPage } from '@raly/contracts/collaboration-reviews';
import type { PublicBrandProfile } from '@raly/contracts/offers';
import type { BrandRecord } from '@raly/contracts/records';
import type { BrandClient } from '../data-access/brand-client';
import type { CollaborationsClient } from '../data-access/collaborations-client';
import type { IdentityClient } from '../data-access/identity-client';
import type { OffersClient } from '../data-access/offers-client';
import { bffErrors } from './errors';

export interface PublicProfileDependencies {
  identity: IdentityClient;
  brands: BrandClient;
  offers: OffersClient;
  collaborations: Pick<CollaborationsClient, 'brandTrackRecord' | 'creatorTrackRecord'>;
}

/** The public fields of a brand record (no permissions but `isVerified`). */
export function publicBrandOf(brand: BrandRecord): Omit<PublicBrandProfile, 'offers'> {
  return {
    id: brand.id,
    username: brand.username,
    company: brand.company,
    websiteUrl: brand.websiteUrl,
    profileImg: brand.profileImg,
    coverImg: brand.coverImg,
    bio: brand.bio,
    socials: { ...brand.socials },
    isVerified: brand.permissions.isVerified,
  };
}

/**
 * GET /api/public/users/:username: a creator's public profile and track record
 * (reviews received, share of deliverables handed in by their due date).
 * @throws AppError not-found 'Sorry, we couldn’t find the page you’re looking for.'
 *   for an unknown username (brand users have none), not-found 'This creator is unavailable.'
 *   for a suspended creator (identity-profile's answers, docs/console.md); as the
 *   collaborations service answered
 */
export async function getPublicCreator(
  dependencies: Pick<PublicProfileDependencies, 'identity' | 'collaborations'>,
  username: string,
): Promise<PublicCreatorPage> {
  const profile = await dependencies.identity.getPublicCreator(username);
  const { id, profileImg, coverImg, interests, socials } = profile;
  const { reviews, figures } = await dependencies.collaborations.creatorTrackRecord(id);
  // Field by field: only the public fields leave, whatever identity adds later.
  return {
    id,
    username: profile.username,
    profileImg,
    coverImg,
    interests: [...interests],
    socials: { x: socials.x, instagram: socials.instagram, threads: socials.threads },
    reviews: { average: reviews.average, count: reviews.count },
    figures: {
      onTimeShare: figures.onTimeShare,
      deliverablesOnTime: figures.deliverablesOnTime,
      deliverablesWithDueDate: figures.deliverablesWithDueDate,
    },
  };
}

/**
 * GET /api/public/brands/:username: a brand's public profile, its open offers
 * and its track record (reviews received, median hours to review and to pay).
 * @throws AppError not-found 'Sorry, we couldn’t find the page you’re looking for.'
 *   for an unknown username, not-found 'This brand is unavailable.' for a suspended brand
 *   (docs/console.md); as the brand, offers or collaborations service answered
 */
export async function getPublicBrandProfile(
  dependencies: Pick<PublicProfileDependencies, 'brands' | 'offers' | 'collaborations'>,
  username: string,
): Promise<PublicBrandPage> {
  const brand = await dependencies.brands.getPublicBrand(username);
  if (!brand) throw bffErrors.notFound();
  if (brand.permissions.isSuspended) throw bffErrors.brandUnavailable();
  const [offers, { reviews, figures }] = await Promise.all([
    dependencies.offers.listPublicBrandOffers(brand.id),
    dependencies.collaborations.brandTrackRecord(brand.id),
  ]);
  // Field by field, as for the profile: only the track record's own fields leave.
  return {
    ...publicBrandOf(brand),
    offers,
    reviews: { average: reviews.average, count: reviews.count },
    figures: {
      medianHoursToReview: figures.medianHoursToReview,
      reviewedSubmissions: figures.reviewedSubmissions,
      medianHoursToPay: figures.medianHoursToPay,
      payments: figures.payments,
    },
  };
}
