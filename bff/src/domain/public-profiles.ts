/**
 * Public profiles (docs/api.md "Public profiles"): a creator's
 * (`/user/<username>`, from identity-profile's public endpoint) and a
 * brand's with its open offers (`/brand/<username>`, from the brand
 * service's public profile and the offers service's public list). Anyone may
 * read them, signed in or not, so they carry public fields only: never a
 * first name, last name, e-mail or phone number (spec preamble).
 */
import type { PublicBrandProfile, PublicCreatorProfile } from '@raly/contracts/offers';
import type { BrandRecord } from '@raly/contracts/records';
import type { BrandClient } from '../data-access/brand-client';
import type { IdentityClient } from '../data-access/identity-client';
import type { OffersClient } from '../data-access/offers-client';
import { bffErrors } from './errors';

export interface PublicProfileDependencies {
  identity: IdentityClient;
  brands: BrandClient;
  offers: OffersClient;
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
 * GET /api/public/users/:username: a creator's public profile.
 * @throws AppError not-found 'Sorry, we couldn’t find the page you’re looking for.'
 *   for an unknown username (brand users have none); as identity answered
 */
export async function getPublicCreator(
  dependencies: Pick<PublicProfileDependencies, 'identity'>,
  username: string,
): Promise<PublicCreatorProfile> {
  const profile = await dependencies.identity.getPublicCreator(username);
  if (!profile) throw bffErrors.notFound();
  const { id, profileImg, coverImg, interests, socials } = profile;
  // Field by field: only the public fields leave, whatever identity adds later.
  return {
    id,
    username: profile.username,
    profileImg,
    coverImg,
    interests: [...interests],
    socials: { x: socials.x, instagram: socials.instagram, threads: socials.threads },
  };
}

/**
 * GET /api/public/brands/:username: a brand's public profile and its open offers.
 * @throws AppError not-found 'Sorry, we couldn’t find the page you’re looking for.'
 *   for an unknown username; as the brand or offers service answered
 */
export async function getPublicBrandProfile(
  dependencies: Pick<PublicProfileDependencies, 'brands' | 'offers'>,
  username: string,
): Promise<PublicBrandProfile> {
  const brand = await dependencies.brands.getPublicBrand(username);
  if (!brand) throw bffErrors.notFound();
  const offers = await dependencies.offers.listPublicBrandOffers(brand.id);
  return { ...publicBrandOf(brand), offers };
}
