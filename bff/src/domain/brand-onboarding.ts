/**
 * The brand step of brand onboarding (spec §4.1, POST /api/me/onboarding/brand):
 * the brand profile's essentials are saved on the brand the way the brand
 * profile form saves them, then the user's `brand` flag is set. Each owning
 * service writes its own change with its event through its outbox
 * (`brand.brand.updated`, `identity.user.updated`), and both fresh snapshots
 * go into the read model at once, so every open tab of the user follows.
 *
 *   the caller's brand (brand users only)
 *     → check the essentials (the contract's messages)
 *     → save them on the brand (services/brand, members only)
 *     → set the `brand` flag (identity-profile)
 */
import type { Me } from '@raly/contracts/bff-api';
import type { BrandRecord } from '@raly/contracts/records';
import {
  brandOnboardingStepSchema,
  type BrandOnboardingStepForm,
  type BrandProfileForm,
} from '@raly/contracts/validation';
import type { Caller } from '@raly/service-kit/auth';
import { myBrandId, type BrandDependencies } from './brands';
import { bffErrors } from './errors';
import { answerWith, findBrand } from './me';
import { answerWithNewest } from './record-store';

/**
 * POST /api/me/onboarding/brand.
 * @param body `{ company, websiteUrl, bio }` (`brandOnboardingStepSchema`), unparsed
 * @returns the user's records after the step: the flag set and the brand updated
 * @throws AppError permission-denied for a user without a brand (a creator);
 *   invalid-argument with the field messages of spec §5.8 ('Company name is
 *   required', 'Please enter a valid url, including http:// or https://',
 *   'Bio must be at least 32 characters', 'Bio must not exceed 280 characters');
 *   as the brand service or identity-profile answered
 */
export async function completeBrandStep(
  dependencies: BrandDependencies,
  caller: Caller,
  body: unknown,
): Promise<Me> {
  const brandId = await myBrandId(dependencies, caller);
  // A ZodError becomes invalid-argument with the first message per field (the kit's handler).
  const essentials = brandOnboardingStepSchema.parse(body ?? {});
  const brand = await findBrand(dependencies, brandId, caller.accessToken);
  if (!brand) throw bffErrors.updateAccountFailed(new Error('brand record not found'));
  const updated = await dependencies.brands.updateBrand(
    caller.accessToken,
    brandId,
    profileFormWith(brand, essentials),
  );
  await answerWithNewest(dependencies.records, 'brand', updated);
  return answerWith(
    dependencies,
    caller,
    await dependencies.identity.completeOnboardingStep(caller.accessToken, 'brand'),
  );
}

/** The whole brand profile form: the brand as it is, with the step's essentials. */
function profileFormWith(
  brand: BrandRecord,
  essentials: BrandOnboardingStepForm,
): BrandProfileForm {
  return {
    username: brand.username,
    company: essentials.company,
    websiteUrl: essentials.websiteUrl,
    bio: essentials.bio,
    socials: { ...brand.socials },
  };
}
