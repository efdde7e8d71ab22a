/**
 * The signed-in user's view of themself (GET/PATCH /api/me): their own user
 * record plus, for a brand user, their brand record. The user id always
 * comes from the verified token, never from the request, so no one can read
 * another user's record (privacy promise).
 */
import type { Me } from '@raly/contracts/bff-api';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import type { Caller } from '@raly/service-kit/auth';
import { bffErrors } from './errors';
import type { IdentityClient } from '../data-access/identity-client';
import type { BrandClient } from '../data-access/brand-client';
import type { StoredUserJson } from '../data-access/read-model';
import { answerWithNewest, type RecordStore } from './record-store';

export interface MeDependencies {
  identity: IdentityClient;
  records: RecordStore;
  /** services/brand, asked for a brand the read model has not seen yet. */
  brands?: BrandClient;
}

/**
 * The user's record: the read model's snapshot, else identity-profile's
 * (then stored in the read model for the next read and for socket rooms).
 * @returns the record, or null when identity has none for this user
 */
export async function findMyUser(
  { identity, records }: MeDependencies,
  caller: Pick<Caller, 'userId' | 'accessToken'>,
): Promise<UserRecord | null> {
  const cached = await records.get('user', caller.userId);
  if (cached) return cached;
  const fresh = await identity.getMyUser(caller.accessToken);
  if (!fresh) return null;
  await records.applySnapshot('user', fresh);
  return fresh;
}

/**
 * A brand record for one of its members: the read model's snapshot, else the
 * brand service's as the member (then stored for the next read) — also after
 * a Redis restart lost it.
 * @param brandId the member's brand
 * @param accessToken the member's token (the brand service checks membership)
 * @returns the record, or null when neither knows it
 */
export async function findBrand(
  { records, brands }: MeDependencies,
  brandId: string,
  accessToken: string,
): Promise<BrandRecord | null> {
  const cached = await records.get('brand', brandId);
  if (cached || !brands) return cached;
  const fresh = await brands.getBrand(accessToken, brandId);
  if (fresh) await records.applySnapshot('brand', fresh);
  return fresh;
}

/** The brand record of a brand user (null for creators), as {@link findBrand}. */
async function findBrandOf(
  dependencies: MeDependencies,
  record: UserRecord,
  accessToken: string,
): Promise<BrandRecord | null> {
  return record.brand?.id ? findBrand(dependencies, record.brand.id, accessToken) : null;
}

/**
 * GET /api/me.
 * @throws AppError `not-found` when the user has no record
 */
export async function getMe(dependencies: MeDependencies, caller: Caller): Promise<Me> {
  const record = await findMyUser(dependencies, caller);
  if (!record) throw bffErrors.notFound('No user record');
  return { user: record, brand: await findBrandOf(dependencies, record, caller.accessToken) };
}

/**
 * GET /api/me's answer body as JSON text, `{ "data": Me }`: the stored user
 * and brand snapshots' texts go into the answer as they are, neither parsed
 * nor serialised again; a record the read model lacks is asked for as in
 * {@link getMe}.
 * @param storedUser the caller's stored snapshot (record store `getUserJson`), or null
 * @throws AppError `not-found` when the user has no record
 */
export async function getMeJson(
  dependencies: MeDependencies,
  caller: Caller,
  storedUser: StoredUserJson | null,
): Promise<string> {
  if (storedUser === null) return JSON.stringify({ data: await getMe(dependencies, caller) });
  const brand =
    storedUser.brandId === null
      ? 'null'
      : ((await dependencies.records.getJson('brand', storedUser.brandId)) ??
        JSON.stringify(await findBrand(dependencies, storedUser.brandId, caller.accessToken)));
  return `{"data":{"user":${storedUser.json},"brand":${brand}}}`;
}

/**
 * PATCH /api/me (after the BFF's own checks, see `./account`): identity-profile
 * applies the changes.
 * @throws AppError as identity answered (409 username-taken / email-taken, 400, 500)
 */
export async function updateMe(
  dependencies: MeDependencies,
  caller: Caller,
  changes: unknown,
): Promise<Me> {
  return answerWith(
    dependencies,
    caller,
    await dependencies.identity.updateMyUser(caller.accessToken, changes),
  );
}

/**
 * POST /api/me/onboarding (updateOnboardingStatus(step, true), spec §7).
 * @param body `{ step }`
 * @throws AppError as identity answered (400 for a step the user's kind does not have)
 */
export async function completeOnboardingStep(
  dependencies: MeDependencies,
  caller: Caller,
  body: unknown,
): Promise<Me> {
  const step = (body as { step?: unknown } | undefined)?.step;
  return answerWith(
    dependencies,
    caller,
    await dependencies.identity.completeOnboardingStep(caller.accessToken, step),
  );
}

/**
 * PUT /api/me/interests (updateInterests, spec §7); also sets the interests flag.
 * @param body `{ interests }`
 * @throws AppError as identity answered (400 'You must select at least one interest')
 */
export async function updateInterests(
  dependencies: MeDependencies,
  caller: Caller,
  body: unknown,
): Promise<Me> {
  return answerWith(
    dependencies,
    caller,
    await dependencies.identity.updateInterests(caller.accessToken, body),
  );
}

/**
 * The command answer: identity's fresh snapshot goes through `applySnapshot`
 * (version-checked; pushed to the user's tabs when newer — at once, without
 * waiting for its event to come round through Kafka, docs/adr/0007) and the
 * newest known record is returned, with the user's brand for a brand user.
 * @param updated the user record identity-profile answered the command with
 * @returns the newest known user record and its brand (null for a creator)
 */
export async function answerWith(
  dependencies: MeDependencies,
  caller: Caller,
  updated: UserRecord,
): Promise<Me> {
  const record = await answerWithNewest(dependencies.records, 'user', updated);
  return { user: record, brand: await findBrandOf(dependencies, record, caller.accessToken) };
}
