/**
 * What the offers service knows of brands: the public copy kept from
 * `brand.brand.v1` (version-checked), and a brand a member acts for, read
 * from that copy or, when its event has not arrived yet, from services/brand
 * (`GET /brands/:id` with the member's access token).
 */
import type { Envelope } from '@raly/contracts/events';
import type { BrandRecord } from '@raly/contracts/records';
import type { Caller } from '@raly/service-kit/auth';
import type { KnownBrand } from '../data-access/brand-repository';
import type { OffersDependencies } from './dependencies';
import { offersErrors } from './errors';
import { closeOffersOfSuspendedBrand } from './offers';

/** The summary offers show of a brand, and whether it is suspended. */
export function knownBrandOf(record: BrandRecord): KnownBrand {
  return {
    id: record.id,
    version: record.version,
    username: record.username,
    company: record.company,
    profileImg: record.profileImg,
    isVerified: record.permissions.isVerified,
    isSuspended: record.permissions.isSuspended,
  };
}

/**
 * Handles `brand.brand.created|updated`: saves the copy unless ours is as new; when the newest
 * copy says the brand is suspended, closes its open offers (docs/console.md).
 */
export async function applyBrandSnapshot(
  dependencies: OffersDependencies,
  event: Envelope<BrandRecord>,
): Promise<void> {
  const stored = await dependencies.brandCopies.save(knownBrandOf(event.data));
  if (stored.isSuspended) await closeOffersOfSuspendedBrand(dependencies, stored.id);
}

/** The brand as services/brand tells its member now (saved as the copy, version-checked). */
async function fetchBrand(
  dependencies: OffersDependencies,
  brandId: string,
  member: Caller,
): Promise<KnownBrand> {
  const record = await dependencies.brands.brandAsMember(brandId, member.accessToken);
  return dependencies.brandCopies.save(knownBrandOf(record));
}

/**
 * The copy of the brand a member acts for, fetched when missing.
 * @throws AppError unavailable when services/brand cannot be reached; its 404/403 passed through
 */
export async function memberBrand(
  dependencies: OffersDependencies,
  brandId: string,
  member: Caller,
): Promise<KnownBrand> {
  return (
    (await dependencies.brandCopies.findById(brandId)) ?? fetchBrand(dependencies, brandId, member)
  );
}

/**
 * Refuses a suspended brand (checked on the copy, then once more on services/brand's answer).
 * @throws AppError permission-denied messages.brandSuspended
 */
export async function assertBrandNotSuspended(
  dependencies: OffersDependencies,
  brandId: string,
  member: Caller,
): Promise<void> {
  const copy = await memberBrand(dependencies, brandId, member);
  if (!copy.isSuspended) return;
  if ((await fetchBrand(dependencies, brandId, member)).isSuspended)
    throw offersErrors.brandSuspended();
}
