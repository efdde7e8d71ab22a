/** The brand profile form's values (spec §3, §5) from the brand record, and what a save sends. */
import type { BrandRecord } from '@raly/contracts/records';
import type { BrandProfileForm, brandProfileSchema } from '@raly/contracts/validation';
import type { z } from 'zod';

/** What a save sends: the brand profile form of `brandProfileSchema`, every field a string. */
export type BrandFormValues = BrandProfileForm;
/** What the form holds before the schema's defaults apply (bio and socials may be absent). */
export type BrandFormInput = z.input<typeof brandProfileSchema>;

/** @returns the form's values for `brand` (its current profile) */
export function brandFormValuesOf(brand: BrandRecord): BrandFormValues {
  return {
    username: brand.username,
    company: brand.company,
    websiteUrl: brand.websiteUrl,
    bio: brand.bio,
    socials: {
      x: brand.socials.x,
      instagram: brand.socials.instagram,
      threads: brand.socials.threads,
      discord: brand.socials.discord,
    },
  };
}

/**
 * Spec §5: the brand profile skips the username uniqueness check when the
 * username is unchanged.
 * @returns true when `username` needs the check (it differs from the brand's)
 */
export function usernameNeedsCheck(
  brand: Pick<BrandRecord, 'username'>,
  username: string,
): boolean {
  return username !== brand.username;
}
