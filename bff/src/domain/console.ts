/**
 * The staff console's actions (docs/console.md): a staff member's decision, with who made it,
 * on whom and why, carried to the owning service, which records it with its audit entry.
 */
import type { StaffActor } from '@raly/contracts/audit';
import {
  brandFlagsDecisionSchema,
  brandSearchQuerySchema,
  brandVerificationDecisionSchema,
  consoleCreatorOf,
  contactViewRequestSchema,
  creatorFlagsDecisionSchema,
  creatorSearchQuerySchema,
  suspensionDecisionSchema,
  type BrandContactView,
  type ConsoleCreator,
  type CreatorContactView,
} from '@raly/contracts/internal';
import type { BrandRecord } from '@raly/contracts/records';
import type { Logger } from '@raly/service-kit/logger';
import type { StaffCaller } from '../auth/keycloak';
import { bffErrors } from './errors';
import type { BrandClient } from '../data-access/brand-client';
import type { IdentityClient } from '../data-access/identity-client';
import type { ModerationClient } from '../data-access/moderation-client';
import type { SessionRevocations } from '../data-access/session-revocations';
import type { RecordStore } from './record-store';

export interface ConsoleDependencies {
  brands: BrandClient;
  identity: IdentityClient;
  /** The staff audit log and the reports (services/moderation). */
  moderation: ModerationClient;
  /** Where a suspended person's sessions are recorded as ended (their tokens and sockets stop). */
  revocations: SessionRevocations;
  /** The read model: a decision's record is applied at once (sign-in reads it). */
  records: RecordStore;
  logger: Logger;
}

/** The staff member as the services' commands name them: the caller's user id and e-mail. */
export const staffActorOf = (staff: StaffCaller): StaffActor => ({
  userId: staff.userId,
  email: staff.email,
});

/**
 * GET /api/console/brands?query=: the console's brand lookup, by the start of the username or a
 * part of the company name, ignoring case (the brand service's `GET /brands?query=`).
 * @param input the request's query string (`brandSearchQuerySchema`: `query`, 1–100 characters
 *   after trimming, given once), unparsed
 * @returns at most 20 BrandRecords by username (brand fields only, no member's contact)
 * @throws AppError invalid-argument (no, blank, too long or repeated query), unavailable
 */
export async function findBrands(
  dependencies: ConsoleDependencies,
  input: unknown,
): Promise<BrandRecord[]> {
  const { query } = brandSearchQuerySchema.parse(input);
  return dependencies.brands.searchBrands(query);
}

/**
 * GET /api/console/creators?query=: the console's creator lookup, by the start of the username or
 * the whole e-mail, ignoring case (identity-profile's `GET /creators?query=`).
 * @param input the request's query string (`creatorSearchQuerySchema`: `query`, 3–100 characters
 *   after trimming, given once), unparsed; checked here too, so a bad query never leaves the BFF
 * @returns at most 20 ConsoleCreators by username (public profile and flags, no contact detail)
 * @throws AppError invalid-argument ('Enter at least 3 characters of a username or an e-mail.',
 *   'The search must not exceed 100 characters.'), unavailable
 */
export async function findCreators(
  dependencies: ConsoleDependencies,
  input: unknown,
): Promise<ConsoleCreator[]> {
  const { query } = creatorSearchQuerySchema.parse(input);
  return dependencies.identity.searchCreators(query);
}

/**
 * PUT /api/console/brands/:id/verification: turns a brand's verified badge on or off. The brand
 * service records the decision's audit entry (with the reason and the staff member); the badge
 * reaches offers and public pages through the brand's `brand.brand.updated` event.
 * @param input `brandVerificationDecisionSchema` `{ isVerified, reason }`, unparsed
 * @returns the brand after the decision
 * @throws AppError invalid-argument (the body), not-found (no such brand), unavailable
 */
export async function decideBrandVerification(
  dependencies: ConsoleDependencies,
  staff: StaffCaller,
  brandId: string,
  input: unknown,
): Promise<BrandRecord> {
  const decision = brandVerificationDecisionSchema.parse(input);
  const brand = await dependencies.brands.setVerified(brandId, {
    ...decision,
    staff: staffActorOf(staff),
  });
  logDecision(dependencies, staff, {
    action: decision.isVerified ? 'brand.verify' : 'brand.unverify',
    brandId,
    reason: decision.reason,
  });
  return brand;
}

/** Logs a staff decision with who made it, on whom, when and why. */
function logDecision(
  dependencies: ConsoleDependencies,
  staff: StaffCaller,
  decision: Record<string, unknown>,
): void {
  dependencies.logger.info(
    { staffUserId: staff.userId, ...decision, at: new Date().toISOString() },
    'staff decision',
  );
}

/**
 * Ends every session of the users begun before now, in the BFF (their access tokens are refused
 * and their sockets closed at once, on every replica: ../data-access/session-revocations.ts).
 * The mark is set one second ahead, since `iat` is in whole seconds; a suspended person cannot
 * sign in meanwhile.
 */
async function endSessionsNow(dependencies: ConsoleDependencies, userIds: string[]): Promise<void> {
  const notBeforeSec = Math.floor(Date.now() / 1000) + 1;
  await Promise.all(
    userIds.map((userId) => dependencies.revocations.endUserSessions(userId, { notBeforeSec })),
  );
}

/**
 * PUT /api/console/creators/:id/suspension (raly-moderator): suspends a creator or lifts the
 * suspension. identity-profile stores the decision (when, by whom, why) with its audit entry,
 * ends their Keycloak sessions and emits the creator's snapshot (offers withdraws their pending applications); the
 * BFF applies the snapshot to the read model (sign-in is refused from now on) and ends their
 * sessions here. Idempotent.
 * @param input `suspensionDecisionSchema` `{ suspended, reason }`, unparsed
 * @returns the creator after the decision, as the console sees them (no contact detail)
 * @throws AppError invalid-argument (the body), not-found 'No such creator.', unavailable
 */
export async function decideCreatorSuspension(
  dependencies: ConsoleDependencies,
  staff: StaffCaller,
  userId: string,
  input: unknown,
): Promise<ConsoleCreator> {
  const decision = suspensionDecisionSchema.parse(input);
  const user = await dependencies.identity.decideCreatorSuspension(userId, {
    ...decision,
    staff: staffActorOf(staff),
  });
  await dependencies.records.applySnapshot('user', user);
  if (user.permissions.isSuspended) await endSessionsNow(dependencies, [userId]);
  logDecision(dependencies, staff, {
    action: decision.suspended ? 'creator.suspend' : 'creator.lift-suspension',
    userId,
    reason: decision.reason,
  });
  return consoleCreatorOf(user);
}

/**
 * PUT /api/console/brands/:id/suspension (raly-moderator): suspends a brand or lifts the
 * suspension. The brand service stores the decision with its audit entry and emits the brand's
 * snapshot (offers closes its open offers; its public page says it is unavailable); on a
 * suspension every member's sessions end, in Keycloak (identity-profile) and here. Idempotent.
 * @param input `suspensionDecisionSchema` `{ suspended, reason }`, unparsed
 * @returns the brand after the decision
 * @throws AppError invalid-argument (the body), not-found (no such brand), unavailable
 */
export async function decideBrandSuspension(
  dependencies: ConsoleDependencies,
  staff: StaffCaller,
  brandId: string,
  input: unknown,
): Promise<BrandRecord> {
  const decision = suspensionDecisionSchema.parse(input);
  const { brand, memberIds } = await dependencies.brands.decideSuspension(brandId, {
    ...decision,
    staff: staffActorOf(staff),
  });
  await dependencies.records.applySnapshot('brand', brand);
  if (brand.permissions.isSuspended && memberIds.length > 0) {
    await endSessionsNow(dependencies, memberIds);
    await dependencies.identity.endSessions(memberIds);
  }
  logDecision(dependencies, staff, {
    action: decision.suspended ? 'brand.suspend' : 'brand.lift-suspension',
    brandId,
    reason: decision.reason,
  });
  return brand;
}

/**
 * PUT /api/console/creators/:id/flags (raly-admin): `{ isBoosted?, isAmbassador? }`;
 * identity-profile records the decision's audit entry with the staff member.
 * @param input `creatorFlagsDecisionSchema`, unparsed
 * @returns the creator after the change, as the console sees them (no contact detail)
 * @throws AppError invalid-argument ('Set at least one flag.', unknown fields), not-found
 */
export async function setCreatorFlags(
  dependencies: ConsoleDependencies,
  staff: StaffCaller,
  userId: string,
  input: unknown,
): Promise<ConsoleCreator> {
  const flags = creatorFlagsDecisionSchema.parse(input);
  const user = await dependencies.identity.setCreatorFlags(userId, {
    ...flags,
    staff: staffActorOf(staff),
  });
  await dependencies.records.applySnapshot('user', user);
  logDecision(dependencies, staff, { action: 'creator.flags', userId, ...flags });
  return consoleCreatorOf(user);
}

/**
 * PUT /api/console/brands/:id/flags (raly-admin): `{ isAgency }` (the brand record's only flag
 * staff set besides verification and suspension, spec §3); the brand service records the
 * decision's audit entry with the staff member.
 * @param input `brandFlagsDecisionSchema`, unparsed
 * @returns the brand after the change
 * @throws AppError invalid-argument, not-found
 */
export async function setBrandFlags(
  dependencies: ConsoleDependencies,
  staff: StaffCaller,
  brandId: string,
  input: unknown,
): Promise<BrandRecord> {
  const flags = brandFlagsDecisionSchema.parse(input);
  const brand = await dependencies.brands.setFlags(brandId, {
    ...flags,
    staff: staffActorOf(staff),
  });
  await dependencies.records.applySnapshot('brand', brand);
  logDecision(dependencies, staff, { action: 'brand.flags', brandId, ...flags });
  return brand;
}

/**
 * POST /api/console/creators/:id/contact-view (raly-moderator): a creator's e-mail and names.
 * identity-profile records the view's audit entry (`contact.view`, with the reason and the staff
 * member) in the read's transaction; every view is an entry.
 * @param input `contactViewRequestSchema` `{ reason }` (3–500 characters), unparsed; checked here,
 *   so a bad reason never leaves the BFF
 * @returns the creator's contact details
 * @throws AppError invalid-argument (the reason), not-found 'No such creator.', unavailable
 */
export async function viewCreatorContact(
  dependencies: ConsoleDependencies,
  staff: StaffCaller,
  userId: string,
  input: unknown,
): Promise<CreatorContactView> {
  const { reason } = contactViewRequestSchema.parse(input);
  const view = await dependencies.identity.viewCreatorContact(userId, {
    reason,
    staff: staffActorOf(staff),
  });
  logDecision(dependencies, staff, { action: 'contact.view', userId, reason });
  return view;
}

/**
 * POST /api/console/brands/:id/contact-view (raly-moderator): each member of the brand with
 * e-mail, names and admin role. The brand's company (the audit entry's label) is read from the
 * brand service first; identity-profile then answers the members and records the view's audit
 * entry in one transaction.
 * @param input `contactViewRequestSchema` `{ reason }`, unparsed
 * @returns the brand's members' contact details
 * @throws AppError invalid-argument (the reason), not-found 'No such brand.' (unknown to the brand
 *   service, or without members), unavailable
 */
export async function viewBrandContacts(
  dependencies: ConsoleDependencies,
  staff: StaffCaller,
  brandId: string,
  input: unknown,
): Promise<BrandContactView> {
  const { reason } = contactViewRequestSchema.parse(input);
  const brand = await dependencies.brands.getBrandForStaff(brandId);
  if (!brand) throw bffErrors.notFound('No such brand.');
  const view = await dependencies.identity.viewBrandContacts(brandId, {
    reason,
    staff: staffActorOf(staff),
    company: brand.company,
  });
  logDecision(dependencies, staff, { action: 'contact.view', brandId, reason });
  return view;
}
