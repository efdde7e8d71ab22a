/**
 * Shapes of the records of spec §3 as they travel between services, the BFF
 * and the browser. These are snapshots: every event carries the whole record.
 */
import { z } from 'zod';
import { INTERESTS } from './constants';

const isoDate = z.string();

export const creatorOnboardingSchema = z.object({
  terms: z.boolean(),
  interests: z.boolean(),
  connects: z.boolean(),
  wallet: z.boolean(),
});
export const brandOnboardingSchema = z.object({ terms: z.boolean(), brand: z.boolean() });

/**
 * The user record (spec §3): a creator profile, or the brand-side user
 * record when `brand` is set. Only its owner ever receives it (privacy
 * promise): it carries names and the e-mail.
 */
export const userRecordSchema = z.object({
  id: z.string(),
  /** Monotonically increasing version of this aggregate. */
  version: z.number().int().nonnegative(),
  username: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  profileImg: z.string(),
  coverImg: z.string(),
  interests: z.array(z.enum(INTERESTS)),
  socials: z.object({ x: z.string(), instagram: z.string(), threads: z.string() }),
  onboarding: z.union([creatorOnboardingSchema, brandOnboardingSchema]),
  permissions: z.object({
    isInfluencer: z.boolean(),
    isBoosted: z.boolean(),
    isVerified: z.boolean(),
    isSuspended: z.boolean(),
    isAmbassador: z.boolean(),
  }),
  notifications: z.object({ offers: z.boolean(), marketing: z.boolean() }),
  brand: z.object({ id: z.string(), isAdmin: z.boolean() }).nullable(),
  lastLogin: isoDate.nullable(),
  created: isoDate,
});
export type UserRecord = z.infer<typeof userRecordSchema>;

/** A user is a brand user when the record holds a brand id (spec §4). */
export function isBrandUser(user: Pick<UserRecord, 'brand'>): boolean {
  return Boolean(user.brand?.id);
}

/**
 * A creator account: its onboarding has the creator's steps (no brand step),
 * whether or not it ever had a brand. Creator accounts cannot join a brand
 * (docs/product-spec.md §13).
 */
export function isCreatorAccount(user: Pick<UserRecord, 'onboarding'>): boolean {
  return !('brand' in user.onboarding);
}

/** Onboarded only when no flag is false (spec §4). */
export function isOnboarded(user: Pick<UserRecord, 'onboarding'>): boolean {
  return Object.values(user.onboarding).every((flag) => flag === true);
}

/** Brand profile (spec §3). Public: carries brand fields only. */
export const brandRecordSchema = z.object({
  id: z.string(),
  version: z.number().int().nonnegative(),
  username: z.string(),
  company: z.string(),
  websiteUrl: z.string(),
  profileImg: z.string(),
  coverImg: z.string(),
  bio: z.string(),
  socials: z.object({
    x: z.string(),
    instagram: z.string(),
    threads: z.string(),
    discord: z.string(),
  }),
  permissions: z.object({
    isAgency: z.boolean(),
    isVerified: z.boolean(),
    isSuspended: z.boolean(),
  }),
  created: isoDate,
});
export type BrandRecord = z.infer<typeof brandRecordSchema>;
