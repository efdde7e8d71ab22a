/**
 * Service-to-service contracts (docs/api.md "Internal endpoints"): the
 * service-token header that guards them and the bodies they take. The BFF
 * never proxies an internal endpoint, so a browser cannot reach one.
 */
import { z } from 'zod';
import { staffActorSchema } from './audit';
import { URL_MAX_LENGTH } from './constants';
import { messages } from './messages';
import { publicCreatorProfileSchema } from './offers';
import { brandRecordSchema, userRecordSchema, type UserRecord } from './records';
import { boundedText, lookupValueSchema, multilineText } from './validation';

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
  moderation: 'raly-moderation-service',
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
 * A staff decision on a brand's verified badge, as the console sends it
 * (`PUT /api/console/brands/:id/verification`): on or off, and why (3–1000 characters after
 * trimming), which the brand's audit entry keeps.
 */
export const brandVerificationDecisionSchema = z
  .object({ isVerified: z.boolean(), reason: z.string().trim().min(3).max(1000) })
  .strict();
export type BrandVerificationDecision = z.infer<typeof brandVerificationDecisionSchema>;

/**
 * `PUT /brands/:id/verification` on services/brand, sent by the BFF for a staff member's
 * decision in the console (docs/console.md): the decision and the staff member who made it,
 * both kept in the decision's audit entry.
 */
export const brandVerificationCommandSchema = brandVerificationDecisionSchema
  .extend({ staff: staffActorSchema })
  .strict();
export type BrandVerificationCommand = z.infer<typeof brandVerificationCommandSchema>;

/** Most brands one search answers (`GET /brands?query=`). */
export const brandSearchLimit = 20;

/**
 * The query string of `GET /brands?query=` on services/brand, sent by the BFF for the staff
 * console's brand lookup (docs/console.md): 1–100 characters after trimming, matched
 * case-insensitively as a prefix of the username or anywhere in the company name.
 */
export const brandSearchQuerySchema = z.object({
  query: z.string().trim().min(1, 'Enter a username or company').max(100),
});
export type BrandSearchQuery = z.infer<typeof brandSearchQuerySchema>;

/** Most creators one search answers (`GET /creators?query=`). */
export const creatorSearchLimit = 20;

/**
 * The query string of the console's creator lookup (docs/console.md): `GET /api/console/creators`
 * on the BFF and `GET /creators` on identity-profile. 3–100 characters after trimming, given once,
 * matched case-insensitively as the start of a username or as a whole e-mail address.
 */
export const creatorSearchQuerySchema = z.object({
  query: z
    .string(messages.creatorQueryTooShort)
    .trim()
    .min(3, messages.creatorQueryTooShort)
    .max(100, messages.searchTooLong),
});
export type CreatorSearchQuery = z.infer<typeof creatorSearchQuerySchema>;

/**
 * A creator as the staff console's lookup sees them: the public profile (no name, e-mail or phone
 * number: staff see contact details only through a contact view, each an audit entry) plus the
 * permission flags staff decide on.
 */
export const consoleCreatorSchema = publicCreatorProfileSchema.extend({
  permissions: userRecordSchema.shape.permissions,
});
export type ConsoleCreator = z.infer<typeof consoleCreatorSchema>;

/**
 * The console's view of a creator's record: the schema keeps its fields only, so a contact detail
 * (name, e-mail, phone number) never passes.
 * @param user a creator's record (a creator always holds a username)
 */
export function consoleCreatorOf(user: UserRecord): ConsoleCreator {
  return consoleCreatorSchema.parse({ ...user, username: user.username ?? '' });
}

/** Longest reason of a suspension decision, in characters. */
export const SUSPENSION_REASON_MAX_LENGTH = 500;

/** Why staff suspend an account: 1–500 characters, no control characters (docs/console.md). */
export const suspensionReasonSchema = multilineText()
  .trim()
  .min(1, messages.suspensionReasonRequired)
  .max(SUSPENSION_REASON_MAX_LENGTH, messages.suspensionReasonTooLong);

/** A staff decision to suspend an account or lift its suspension, as the console sends it. */
export const suspensionDecisionSchema = z
  .object({ suspended: z.boolean(), reason: suspensionReasonSchema })
  .strict();
export type SuspensionDecision = z.infer<typeof suspensionDecisionSchema>;

/**
 * `PUT /users/:id/suspension` on identity-profile and `PUT /brands/:id/suspension` on
 * services/brand, sent by the BFF (docs/console.md): the decision and the staff member who made
 * it (their Keycloak user id is stored with a suspension; both go in the audit entry).
 */
export const suspensionCommandSchema = suspensionDecisionSchema
  .extend({ staff: staffActorSchema })
  .strict();
export type SuspensionCommand = z.infer<typeof suspensionCommandSchema>;

/** What an owning service stores for a suspension decision (nulls when it is lifted). */
export interface SuspensionState {
  isSuspended: boolean;
  suspendedAt: Date | null;
  suspendedBy: string | null;
  suspensionReason: string | null;
}

/**
 * The state a suspension command leaves: suspended now, by the staff member, for the reason; or,
 * lifted, every field cleared.
 * @param now the decision's time (default: now)
 */
export function suspensionStateOf(command: SuspensionCommand, now = new Date()): SuspensionState {
  return command.suspended
    ? {
        isSuspended: true,
        suspendedAt: now,
        suspendedBy: command.staff.userId,
        suspensionReason: command.reason,
      }
    : { isSuspended: false, suspendedAt: null, suspendedBy: null, suspensionReason: null };
}

/**
 * `PUT /brands/:id/suspension` on services/brand → `{ data: BrandSuspension }`: the brand after
 * the decision and its members' user ids (whose sessions the BFF then ends).
 */
export const brandSuspensionSchema = z.object({
  brand: brandRecordSchema,
  memberIds: z.array(z.string()),
});
export type BrandSuspension = z.infer<typeof brandSuspensionSchema>;

/** At least one flag set (a flags decision or command with none is refused; `staff` is no flag). */
const someFlag = (flags: Record<string, unknown>) =>
  Object.values(flags).some((flag) => typeof flag === 'boolean');

/** An administrator's decision on `flags`, as the console sends it: the flags alone, at least one. */
const flagsDecision = <Flags extends z.ZodRawShape>(flags: Flags) =>
  z.object(flags).strict().refine(someFlag, messages.flagsRequired);

/** The internal command of a flags decision: the flags (at least one) and the staff member. */
const flagsCommand = <Flags extends z.ZodRawShape>(flags: Flags) =>
  z
    .object({ ...flags, staff: staffActorSchema })
    .strict()
    .refine(someFlag, messages.flagsRequired);

const creatorFlags = { isBoosted: z.boolean().optional(), isAmbassador: z.boolean().optional() };
const brandFlags = { isAgency: z.boolean().optional() };

/** An administrator's decision on a creator's flags, as the console sends it. */
export const creatorFlagsDecisionSchema = flagsDecision(creatorFlags);
export type CreatorFlagsDecision = z.infer<typeof creatorFlagsDecisionSchema>;

/**
 * `PUT /users/:id/flags` on identity-profile (the BFF, an admin's decision): a creator's flags
 * and the staff member who set them (the audit entry's; flags take no reason).
 */
export const creatorFlagsCommandSchema = flagsCommand(creatorFlags);
export type CreatorFlagsCommand = z.infer<typeof creatorFlagsCommandSchema>;

/** An administrator's decision on a brand's flags (`isAgency`), as the console sends it. */
export const brandFlagsDecisionSchema = flagsDecision(brandFlags);
export type BrandFlagsDecision = z.infer<typeof brandFlagsDecisionSchema>;

/**
 * `PUT /brands/:id/flags` on services/brand (the BFF, an admin's decision): a brand's flags and
 * the staff member who set them (the audit entry's; flags take no reason).
 */
export const brandFlagsCommandSchema = flagsCommand(brandFlags);
export type BrandFlagsCommand = z.infer<typeof brandFlagsCommandSchema>;

/**
 * `POST /sessions/end` on identity-profile (the BFF, for a suspended brand's members): ends every
 * Keycloak session of each user (Admin REST API `POST /users/{id}/logout`).
 */
export const endSessionsCommandSchema = z
  .object({ userIds: z.array(internalValue).max(1000) })
  .strict();
export type EndSessionsCommand = z.infer<typeof endSessionsCommandSchema>;

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

/**
 * Why a staff member looks at contact details (docs/console.md "Contact details"): 3–500
 * characters after trimming, no control characters.
 */
export const contactViewReasonSchema = z
  .string(messages.contactViewReasonRequired)
  .pipe(
    multilineText()
      .trim()
      .min(3, messages.contactViewReasonRequired)
      .max(500, messages.suspensionReasonTooLong),
  );

/**
 * The console's request to see contact details (`POST /api/console/creators/:id/contact-view`,
 * `POST /api/console/brands/:id/contact-view`): why, which the view's audit entry keeps.
 */
export const contactViewRequestSchema = z.object({ reason: contactViewReasonSchema }).strict();
export type ContactViewRequest = z.infer<typeof contactViewRequestSchema>;

/**
 * `POST /users/:id/contact-view` on identity-profile (the BFF): the reason and the staff member
 * who looks, both kept in the view's audit entry.
 */
export const creatorContactViewCommandSchema = contactViewRequestSchema
  .extend({ staff: staffActorSchema })
  .strict();
export type CreatorContactViewCommand = z.infer<typeof creatorContactViewCommandSchema>;

/**
 * `POST /brands/:brandId/contact-view` on identity-profile (the BFF): as a creator's, plus the
 * brand's company as the brand service knows it, the audit entry's label of the brand.
 */
export const brandContactViewCommandSchema = creatorContactViewCommandSchema
  .extend({ company: internalValue })
  .strict();
export type BrandContactViewCommand = z.infer<typeof brandContactViewCommandSchema>;

/** A name part as the user record holds it: null when the record has none. */
const namePart = z.string().min(1).nullable();

/** A creator's contact details: the account's e-mail and, where the record has them, the names. */
export const creatorContactViewSchema = z.object({
  kind: z.literal('creator'),
  /** The creator's user id. */
  id: z.string(),
  email: z.string(),
  firstName: namePart,
  lastName: namePart,
});
export type CreatorContactView = z.infer<typeof creatorContactViewSchema>;

/** One member of a brand as its contact details show them. */
export const brandContactSchema = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: namePart,
  lastName: namePart,
  /** Whether the member is the brand's admin. */
  isAdmin: z.boolean(),
});
export type BrandContact = z.infer<typeof brandContactSchema>;

/** A brand's contact details: each of its members (admins first, then by e-mail). */
export const brandContactViewSchema = z.object({
  kind: z.literal('brand'),
  /** The brand's id. */
  id: z.string(),
  members: z.array(brandContactSchema),
});
export type BrandContactView = z.infer<typeof brandContactViewSchema>;

/**
 * The answer of a contact view (docs/console.md "Contact details"), from identity-profile's
 * internal routes and the BFF's console routes (`{ data: ContactView }`, never cached).
 */
export const contactViewSchema = z.discriminatedUnion('kind', [
  creatorContactViewSchema,
  brandContactViewSchema,
]);
export type ContactView = z.infer<typeof contactViewSchema>;
