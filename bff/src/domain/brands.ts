/**
 * Brand profiles through the BFF (docs/api.md): the public profile by
 * username (brand fields only, never a contact's name or e-mail) and the
 * signed-in brand user's update of their own brand. The brand id always
 * comes from the user's record, never from the request.
 */
import type { BrandRecord } from '@raly/contracts/records';
import type { Caller } from '@raly/service-kit/auth';
import type { BrandClient } from '../data-access/brand-client';
import { bffErrors } from './errors';
import { findMyUser, type MeDependencies } from './me';
import { answerWithNewest } from './record-store';

export interface BrandDependencies extends MeDependencies {
  brands: BrandClient;
}

/**
 * GET /api/brands/:username.
 * @throws AppError not-found
 */
export async function getPublicBrand(
  dependencies: Pick<BrandDependencies, 'brands'>,
  username: string,
): Promise<BrandRecord> {
  const brand = await dependencies.brands.getPublicBrand(username);
  if (!brand) throw bffErrors.notFound();
  return brand;
}

/**
 * The brand id of the signed-in user.
 * @throws AppError internal 'There was a problem updating your account. Try again.' without a user
 *   record (spec §8); permission-denied for a user without a brand
 */
export async function myBrandId(dependencies: MeDependencies, caller: Caller): Promise<string> {
  const record = await findMyUser(dependencies, caller);
  if (!record) throw bffErrors.updateAccountFailed(new Error('no user record'));
  if (!record.brand?.id) throw bffErrors.notABrandUser();
  return record.brand.id;
}

/**
 * PATCH /api/brand: the brand profile form (spec §5), applied by services/brand
 * (members only); the fresh snapshot goes into the read model and to the
 * brand's room, and the newest known brand is answered.
 * @throws AppError as the brand service answered (400 with fields, 409 username-taken, 403, 500)
 */
export async function updateMyBrand(
  dependencies: BrandDependencies,
  caller: Caller,
  form: unknown,
): Promise<BrandRecord> {
  const brandId = await myBrandId(dependencies, caller);
  const updated = await dependencies.brands.updateBrand(caller.accessToken, brandId, form);
  return answerWithNewest(dependencies.records, 'brand', updated);
}
