/**
 * Service-to-service contracts (docs/api.md "Internal endpoints"): the
 * service-token header that guards them and the bodies they take. The BFF
 * never proxies an internal endpoint, so a browser cannot reach one.
 */
import { z } from 'zod';
import { URL_MAX_LENGTH } from './constants';
import { messages } from './messages';
import { boundedText, lookupValueSchema } from './validation';

/** A required internal value: 1–255 characters, no control characters. */
const internalValue = lookupValueSchema.min(1);

export { INTERNAL_TOKEN_HEADER } from './envelope';

/**
 * Each back end's own confidential Keycloak client (infra/keycloak/raly-realm.json):
 * its identity when it calls another service (`azp`), and the audience of
 * calls to it (`aud`). The called service allows each internal route to the
 * callers listed here (docs/api.md "Internal endpoints").
 */
export const serviceClientIds = {
  bff: 'raly-bff-service',
  identity: 'raly-identity-service',
  brand: 'raly-brand-service',
  media: 'raly-media-service',
  notifications: 'raly-notifications-service',
} as const;

/**
 * `POST /brands` on services/brand, sent by identity-profile while it
 * registers a brand (spec §4). `creatorUserId` is the new user's id: the
 * idempotency key (a retry returns the brand already made) and the brand's
 * first member, its admin.
 */
export const createBrandCommandSchema = z.object({
  creatorUserId: internalValue,
  username: internalValue,
  company: internalValue,
  websiteUrl: boundedText(URL_MAX_LENGTH, messages.urlTooLong).min(1),
});
export type CreateBrandCommand = z.infer<typeof createBrandCommandSchema>;

/**
 * `POST /usernames/claim` and `POST /usernames/release` on
 * identity-profile, which owns the one registry of usernames shared by
 * creators and brands (spec §5 requires uniqueness; across creators and
 * brands is our reading). Creators' usernames
 * are claimed by identity-profile itself; other services claim for brands
 * and for brand members' handles (the same registry, so a handle is unique
 * among usernames too).
 */
export const usernameClaimSchema = z.object({
  username: internalValue,
  /** `brand` (a brand's username) or `member` (a brand member's handle; ownerId: the user id). */
  ownerType: z.enum(['brand', 'member']),
  ownerId: internalValue,
});
export type UsernameClaim = z.infer<typeof usernameClaimSchema>;

/**
 * `PUT /brands/:id/verification` on services/brand, sent by the BFF for a staff member's
 * decision in the console (docs/console.md): the brand's verified badge on or off.
 */
export const brandVerificationCommandSchema = z.object({ isVerified: z.boolean() }).strict();
export type BrandVerificationCommand = z.infer<typeof brandVerificationCommandSchema>;

/** `GET /brands/:id/members/:userId` on services/brand → `{ data: BrandMembership }`. */
export const brandMembershipSchema = z.object({ isMember: z.boolean(), isAdmin: z.boolean() });
export type BrandMembership = z.infer<typeof brandMembershipSchema>;

/**
 * `GET /contacts/:userId` on identity-profile → `{ data: UserContact }`, for
 * notifications only, at the moment it sends that user an e-mail: the address
 * is never copied into events or another service's tables. `username` is the
 * user's own (null for a brand member without one).
 */
export const userContactSchema = z.object({
  email: z.email(),
  username: z.string().nullable(),
});
export type UserContact = z.infer<typeof userContactSchema>;
