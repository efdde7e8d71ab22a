/**
 * Brand records (spec §3, §5, §6): creation during a brand registration
 * (and its compensation), the members' private read and profile update, the
 * visitors' public read, and membership checks for other services.
 *
 * Updating the username:
 * (the same operation as a creator's in identity-profile, there in one
 * transaction; here over the registry's API, `POST /usernames/claim|release`)
 *   assertMember → claim the new username in identity-profile's registry
 *     → save the brand (+ brand.brand.updated, one transaction)
 *       ↳ saving failed → release the new username (compensation)
 *     → release the old username
 */
import { newAuditEntry, type StaffDecision } from '@raly/contracts/audit';
import {
  brandFlagsCommandSchema,
  brandSearchLimit,
  brandSearchQuerySchema,
  brandVerificationCommandSchema,
  createBrandCommandSchema,
  suspensionCommandSchema,
  suspensionStateOf,
  type BrandMembership,
  type BrandSuspension,
} from '@raly/contracts/internal';
import type { BrandRecord } from '@raly/contracts/records';
import {
  brandProfileSchema,
  normalizeUsername,
  type BrandProfileForm,
} from '@raly/contracts/validation';
import { AppError } from '@raly/service-kit/errors';
import type { RaiseEvent } from '@raly/service-kit/outbox';
import {
  DuplicateBrandUsernameError,
  type BrandChanges,
  type BrandVerificationChange,
} from '../data-access/brand-repository';
import { UsernameTakenError } from '../data-access/identity-client';
import type { BrandDependencies } from './dependencies';
import { brandErrors } from './errors';
import { auditEntryRecordedEvent, brandCreatedEvent, brandUpdatedEvent } from './events';

/**
 * `POST /brands` (internal): the brand of a new brand registration, with its
 * creator as admin member; idempotent on `creatorUserId`.
 * @param input `createBrandCommandSchema`, unparsed
 * @returns the brand and whether this call created it
 * @throws AppError invalid-argument, username-taken, internal
 */
export async function createBrand(
  dependencies: BrandDependencies,
  input: unknown,
): Promise<{ brand: BrandRecord; created: boolean }> {
  const command = createBrandCommandSchema.parse(input);
  try {
    return await dependencies.brands.createWithEvent(
      { ...command, username: normalizeUsername(command.username) },
      brandCreatedEvent,
    );
  } catch (error) {
    if (error instanceof DuplicateBrandUsernameError) throw brandErrors.usernameTaken(error);
    // Already classified (e.g. a value Postgres refuses: 400), not a failed creation.
    if (error instanceof AppError) throw error;
    throw brandErrors.createFailed(error);
  }
}

/** `DELETE /brands/:id` (internal): undoes {@link createBrand} for a failed registration. */
export async function deleteBrand(dependencies: BrandDependencies, brandId: string): Promise<void> {
  await dependencies.brands.delete(brandId);
}

/**
 * `GET /brands/:id/members/:userId` (internal).
 * @returns whether the user is a member, and an admin
 */
export async function membershipOf(
  dependencies: BrandDependencies,
  brandId: string,
  userId: string,
): Promise<BrandMembership> {
  const membership = await dependencies.brands.findMembership(brandId, userId);
  return { isMember: membership !== null, isAdmin: membership?.isAdmin ?? false };
}

/**
 * `GET /brands/:id`: the brand as its members see it.
 * @throws AppError not-found, permission-denied (not a member)
 */
export async function getBrandAsMember(
  dependencies: BrandDependencies,
  brandId: string,
  userId: string,
): Promise<BrandRecord> {
  const brand = await dependencies.brands.findById(brandId);
  if (!brand) throw brandErrors.brandNotFound();
  await assertMember(dependencies, brandId, userId);
  return brand;
}

/**
 * `GET /public/brands/:username`: the public brand profile (spec §1, §3).
 * The BrandRecord holds brand fields only, never a contact's name or e-mail.
 * @throws AppError not-found
 */
export async function getPublicBrand(
  dependencies: BrandDependencies,
  username: string,
): Promise<BrandRecord> {
  const brand = await dependencies.brands.findByUsername(normalizeUsername(username));
  if (!brand) throw brandErrors.brandNotFound();
  return brand;
}

/**
 * `GET /brands/:id/record` (internal, the BFF for the staff console, docs/console.md "Contact
 * details"): the brand's record by id, whoever asks (the route's guard lets only the BFF in).
 * @returns the BrandRecord: brand fields only, no member's name or contact
 * @throws AppError not-found (no such brand)
 */
export async function getBrandForStaff(
  dependencies: BrandDependencies,
  brandId: string,
): Promise<BrandRecord> {
  const brand = await dependencies.brands.findById(brandId);
  if (!brand) throw brandErrors.brandNotFound();
  return brand;
}

/**
 * `GET /brands?query=` (internal, the BFF for the staff console's brand lookup, docs/console.md):
 * brands whose username starts with the query or whose company contains it, ignoring case.
 * @param input the request's query string (`brandSearchQuerySchema`), unparsed
 * @returns at most `brandSearchLimit` (20) BrandRecords by username: brand fields only, no
 *   member's name or contact
 * @throws AppError invalid-argument (no query, an empty one, one over 100 characters, a repeated one)
 */
export async function searchBrands(
  dependencies: BrandDependencies,
  input: unknown,
): Promise<BrandRecord[]> {
  const { query } = brandSearchQuerySchema.parse(input);
  return dependencies.brands.search(query, brandSearchLimit);
}

/**
 * `PATCH /brands/:id`: the brand profile form (spec §5); the username's
 * uniqueness is checked only when it changed. Emits `brand.brand.updated`
 * when anything changed.
 * @param input the form (`brandProfileSchema`), unparsed
 * @returns the brand after the change (same version when nothing changed)
 * @throws AppError invalid-argument (the form's messages), not-found,
 *   permission-denied, username-taken 'Username already exists. Try another.',
 *   internal 'There was a problem updating your account. Try again.' (unavailable, 503,
 *   with the same message when the database or identity-profile is away for the moment)
 */
export async function updateBrand(
  dependencies: BrandDependencies,
  brandId: string,
  userId: string,
  input: unknown,
): Promise<BrandRecord> {
  const form = brandProfileSchema.parse(input);
  const current = await getBrandAsMember(dependencies, brandId, userId);
  const changes = changedFields(current, form);
  if (Object.keys(changes).length === 0) return current;

  const newUsername = changes.username;
  if (newUsername !== undefined) await claimUsername(dependencies, newUsername, brandId);
  let updated: BrandRecord | null;
  try {
    updated = await dependencies.brands.updateWithEvent(brandId, changes, brandUpdatedEvent);
  } catch (error) {
    if (newUsername !== undefined) await releaseUsername(dependencies, newUsername, brandId);
    if (error instanceof DuplicateBrandUsernameError) throw brandErrors.usernameTaken(error);
    throw brandErrors.updateFailed(error);
  }
  if (!updated) throw brandErrors.brandNotFound();
  if (newUsername !== undefined) await releaseUsername(dependencies, current.username, brandId);
  return updated;
}

/**
 * `PUT /brands/:id/verification` (internal, the BFF for a staff decision in the console): turns
 * the brand's verified badge on or off, with the decision's audit entry (`brand.verify` or
 * `brand.unverify`, the reason, no details). Emits `brand.brand.updated` when it changed, which
 * carries the badge on to offers and the BFF's read model.
 * @param input `brandVerificationCommandSchema`, unparsed
 * @returns the brand after the change (same version, no event and no entry when it already had
 *   that badge)
 * @throws AppError invalid-argument, not-found, internal
 */
export async function setBrandVerified(
  dependencies: BrandDependencies,
  brandId: string,
  input: unknown,
): Promise<BrandRecord> {
  const { isVerified, reason, staff } = brandVerificationCommandSchema.parse(input);
  const current = await dependencies.brands.findById(brandId);
  if (!current) throw brandErrors.brandNotFound();
  if (current.permissions.isVerified === isVerified) return current;
  return saveStaffChange(
    dependencies,
    brandId,
    { isVerified },
    {
      staff,
      at: new Date(),
      action: isVerified ? 'brand.verify' : 'brand.unverify',
      reason,
      details: {},
    },
  );
}

/**
 * `PUT /brands/:id/suspension` (internal, the BFF for a staff decision in the console):
 * suspends the brand (with when, by which staff member and why) or lifts the suspension
 * (clearing them), with the decision's audit entry (`brand.suspend` or `brand.lift-suspension`,
 * the reason, no details). Emits `brand.brand.updated` when it changed, on which offers closes the
 * brand's open offers; the BFF ends the members' sessions. Idempotent: a brand already in the
 * wanted state is answered as is, with no event and no entry.
 * @param input `suspensionCommandSchema`, unparsed
 * @returns the brand after the decision and its members' user ids
 * @throws AppError invalid-argument, not-found, internal
 */
export async function decideBrandSuspension(
  dependencies: BrandDependencies,
  brandId: string,
  input: unknown,
): Promise<BrandSuspension> {
  const command = suspensionCommandSchema.parse(input);
  const current = await dependencies.brands.findById(brandId);
  if (!current) throw brandErrors.brandNotFound();
  const at = new Date();
  const brand =
    current.permissions.isSuspended === command.suspended
      ? current
      : await saveStaffChange(dependencies, brandId, suspensionStateOf(command, at), {
          staff: command.staff,
          at,
          action: command.suspended ? 'brand.suspend' : 'brand.lift-suspension',
          reason: command.reason,
          details: {},
        });
  return { brand, memberIds: await dependencies.brands.listMemberIds(brandId) };
}

/**
 * `PUT /brands/:id/flags` (internal, the BFF for an administrator): sets the brand's `isAgency`
 * (spec §3 permissions), with the decision's audit entry (`brand.flags`, no reason,
 * `{ isAgency }` as details). Idempotent: nothing changed, no event and no entry.
 * @param input `brandFlagsCommandSchema`, unparsed
 * @returns the brand after the change
 * @throws AppError invalid-argument, not-found, internal
 */
export async function setBrandFlags(
  dependencies: BrandDependencies,
  brandId: string,
  input: unknown,
): Promise<BrandRecord> {
  const { isAgency, staff } = brandFlagsCommandSchema.parse(input);
  const current = await dependencies.brands.findById(brandId);
  if (!current) throw brandErrors.brandNotFound();
  if (isAgency === undefined || current.permissions.isAgency === isAgency) return current;
  return saveStaffChange(
    dependencies,
    brandId,
    { isAgency },
    { staff, at: new Date(), action: 'brand.flags', reason: null, details: { isAgency } },
  );
}

/** The audit entry of `decision`, on the brand as the change left it (its company). */
const auditEntryOf =
  (decision: StaffDecision): RaiseEvent<BrandRecord> =>
  (brand) =>
    auditEntryRecordedEvent(
      newAuditEntry(decision, { kind: 'brand', id: brand.id, label: brand.company }),
    );

/**
 * Saves a staff decision with the brand's `brand.brand.updated` snapshot and the decision's
 * audit entry, in one transaction.
 */
async function saveStaffChange(
  dependencies: BrandDependencies,
  brandId: string,
  change: BrandVerificationChange,
  decision: StaffDecision,
): Promise<BrandRecord> {
  let updated: BrandRecord | null;
  try {
    updated = await dependencies.brands.updateWithEvent(brandId, change, [
      brandUpdatedEvent,
      auditEntryOf(decision),
    ]);
  } catch (error) {
    throw brandErrors.updateFailed(error);
  }
  if (!updated) throw brandErrors.brandNotFound();
  return updated;
}

async function assertMember(
  dependencies: BrandDependencies,
  brandId: string,
  userId: string,
): Promise<void> {
  if (!(await dependencies.brands.findMembership(brandId, userId))) throw brandErrors.notAMember();
}

/** The columns that really change. */
function changedFields(current: BrandRecord, form: BrandProfileForm): BrandChanges {
  const wanted: Required<BrandChanges> = {
    username: normalizeUsername(form.username),
    company: form.company,
    websiteUrl: form.websiteUrl,
    bio: form.bio,
    socialsX: form.socials.x,
    socialsInstagram: form.socials.instagram,
    socialsThreads: form.socials.threads,
    socialsDiscord: form.socials.discord,
  };
  const now: Required<BrandChanges> = {
    username: current.username,
    company: current.company,
    websiteUrl: current.websiteUrl,
    bio: current.bio,
    socialsX: current.socials.x,
    socialsInstagram: current.socials.instagram,
    socialsThreads: current.socials.threads,
    socialsDiscord: current.socials.discord,
  };
  return Object.fromEntries(
    Object.entries(wanted).filter(([field, value]) => now[field as keyof BrandChanges] !== value),
  ) as BrandChanges;
}

async function claimUsername(
  dependencies: BrandDependencies,
  username: string,
  brandId: string,
): Promise<void> {
  try {
    await dependencies.identity.claimUsername(username, brandId);
  } catch (error) {
    if (error instanceof UsernameTakenError) throw brandErrors.usernameTaken(error);
    // identity-profile away for the moment: the update's own message (spec §8), answered 503.
    if (error instanceof AppError && error.code !== 'unavailable') throw error;
    throw brandErrors.updateFailed(error);
  }
}

/** Best effort: a failure leaves a username reserved for nobody, so it is logged loudly. */
async function releaseUsername(
  dependencies: BrandDependencies,
  username: string,
  brandId: string,
): Promise<void> {
  try {
    await dependencies.identity.releaseUsername(username, brandId);
  } catch (error) {
    dependencies.logger.error(
      { err: error, brandId, username },
      'username release failed: reserved for nobody',
    );
  }
}
