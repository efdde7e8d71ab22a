/**
 * User records in Postgres (the only module that touches the `users` table).
 * Every write commits the change, the username registry change the domain
 * asked for (`./username-registry`) and the integration event the domain
 * chose (`../domain/events`), built from the written snapshot, in one
 * transaction, with the record's version incremented. The hot paths (a user
 * read by id, an update that claims no username) run in plain SQL on the
 * service's pg pool through the kit's plain-SQL event writer
 * (`createPgEventWriter`): a read is one prepared statement, an update three
 * round trips (BEGIN, the prepared `UPDATE … RETURNING`, the events' INSERT
 * with COMMIT); the rest go through Prisma and the kit's event writer
 * (@raly/service-kit/outbox).
 */
import type { UserRecord } from '@raly/contracts/records';
import type { Interest } from '@raly/contracts/constants';
import { uniqueViolationOf } from '@raly/service-kit/errors';
import type { OutboxRow, PgEventWriter, RaiseEvent, RecordEvents } from '@raly/service-kit/outbox';
import type { Pool } from 'pg';
import type { Prisma, PrismaClient, User } from '../generated/prisma/client';
import type { IdentityEvents } from './database';
import { claimIn, releaseIn, UsernameHeldError, type UsernameChange } from './username-registry';

/** A unique constraint refused a write; `field` is the column that clashed. */
export class DuplicateUserError extends Error {
  constructor(
    readonly field: 'username' | 'email' | 'id',
    options?: ErrorOptions,
  ) {
    super(`duplicate ${field}`, options);
    this.name = 'DuplicateUserError';
  }
}

/** The columns a new user is created with (the rest take their defaults). */
export type NewUser = Omit<Prisma.UserCreateInput, 'version' | 'created' | 'updatedAt'>;

/** The columns an update may change. */
export type UserChanges = Partial<
  Pick<
    User,
    | 'username'
    | 'email'
    | 'firstName'
    | 'lastName'
    | 'phoneNumber'
    | 'interests'
    | 'notifyOffers'
    | 'notifyMarketing'
    | 'onboardingTerms'
    | 'onboardingInterests'
    | 'onboardingConnects'
    | 'onboardingWallet'
    | 'onboardingBrand'
    | 'brandId'
    | 'brandIsAdmin'
    | 'lastLogin'
    | 'isBoosted'
    | 'isAmbassador'
    | 'isSuspended'
    | 'suspendedAt'
    | 'suspendedBy'
    | 'suspensionReason'
  >
>;

export interface UserRepository {
  findById(id: string): Promise<UserRecord | null>;
  /** The creator (a user without a brand) holding this stored-form username, or null. */
  findCreatorByUsername(username: string): Promise<UserRecord | null>;
  /**
   * Creator accounts (no brand, creator onboarding, a username) whose username starts with `text`
   * or whose e-mail is `text`, ignoring case, by username; `%`, `_` and `\\` match themselves.
   * @param limit most creators answered
   */
  searchCreators(text: string, limit: number): Promise<UserRecord[]>;
  /** The id of the user with this (normalised) e-mail, or null. */
  findIdByEmail(email: string): Promise<string | null>;
  isEmailTaken(email: string): Promise<boolean>;
  /**
   * Inserts the user, applies the registry change and records `event(snapshot)`,
   * in one transaction.
   * @param event the event the creation raises (`userCreatedEvent`)
   * @param usernames the username to claim for the new user (or its brand)
   * @throws DuplicateUserError when username, e-mail or id already exist
   */
  insertWithEvent(
    user: NewUser,
    event: RaiseEvent<UserRecord>,
    usernames?: UsernameChange,
  ): Promise<UserRecord>;
  /**
   * Applies the changes, increments the version, applies the registry change
   * and records `event(snapshot)`, in one transaction.
   * @param event the event the change raises (`userUpdatedEvent`), or its events in order (a
   *   staff decision: the snapshot and the decision's audit entry), each built from the snapshot
   * @param usernames the new username to claim and the old one to release
   * @returns the new snapshot, or null when no such user exists (nothing is written)
   * @throws DuplicateUserError when the new username or e-mail is taken
   */
  updateWithEvent(
    id: string,
    changes: UserChanges,
    event: RaiseEvent<UserRecord> | RaiseEvent<UserRecord>[],
    usernames?: UsernameChange,
  ): Promise<UserRecord | null>;
  /**
   * Reads the users `where` names and records the event `event(users)` answers, in one
   * transaction (a read that is itself a fact, e.g. a staff member viewing contact details).
   * @param where one user by id, or the members of a brand (by their record's brand id)
   * @param event the event of the read, or null to record nothing (e.g. nobody found)
   * @returns the users read: by id, at most one; a brand's members, admins first, then by e-mail
   */
  readWithEvent(
    where: { id: string } | { brandId: string },
    event: (users: UserRecord[]) => OutboxRow | null,
  ): Promise<UserRecord[]>;
}

/** The columns of `users` named as the generated client's `User` fields: a plain-SQL select list. */
const userColumns = [
  'id',
  'version',
  'username',
  'first_name AS "firstName"',
  'last_name AS "lastName"',
  'email',
  'phone_number AS "phoneNumber"',
  'profile_img AS "profileImg"',
  'cover_img AS "coverImg"',
  'interests',
  'socials_x AS "socialsX"',
  'socials_instagram AS "socialsInstagram"',
  'socials_threads AS "socialsThreads"',
  'onboarding_terms AS "onboardingTerms"',
  'onboarding_interests AS "onboardingInterests"',
  'onboarding_connects AS "onboardingConnects"',
  'onboarding_wallet AS "onboardingWallet"',
  'onboarding_brand AS "onboardingBrand"',
  'is_influencer AS "isInfluencer"',
  'is_boosted AS "isBoosted"',
  'is_verified AS "isVerified"',
  'is_suspended AS "isSuspended"',
  'is_ambassador AS "isAmbassador"',
  'suspended_at AS "suspendedAt"',
  'suspended_by AS "suspendedBy"',
  'suspension_reason AS "suspensionReason"',
  'notify_offers AS "notifyOffers"',
  'notify_marketing AS "notifyMarketing"',
  'brand_id AS "brandId"',
  'brand_is_admin AS "brandIsAdmin"',
  'last_login AS "lastLogin"',
  'created',
  'updated_at AS "updatedAt"',
].join(', ');

/** The column of each field an update may change (prisma/schema.prisma's `@map`s). */
const columnOfChange: Record<keyof UserChanges, string> = {
  username: 'username',
  email: 'email',
  firstName: 'first_name',
  lastName: 'last_name',
  phoneNumber: 'phone_number',
  interests: 'interests',
  notifyOffers: 'notify_offers',
  notifyMarketing: 'notify_marketing',
  onboardingTerms: 'onboarding_terms',
  onboardingInterests: 'onboarding_interests',
  onboardingConnects: 'onboarding_connects',
  onboardingWallet: 'onboarding_wallet',
  onboardingBrand: 'onboarding_brand',
  brandId: 'brand_id',
  brandIsAdmin: 'brand_is_admin',
  lastLogin: 'last_login',
  isBoosted: 'is_boosted',
  isAmbassador: 'is_ambassador',
  isSuspended: 'is_suspended',
  suspendedAt: 'suspended_at',
  suspendedBy: 'suspended_by',
  suspensionReason: 'suspension_reason',
};

/**
 * The prepared `UPDATE … RETURNING` of one set of changed fields: the row's
 * version incremented and `updated_at` set (as Prisma's `@updatedAt` does).
 * @returns pg's query config: named after the fields, so each set is prepared once per connection
 */
export function userUpdateStatement(
  id: string,
  changes: UserChanges,
): { name: string; text: string; values: unknown[] } {
  const fields = (Object.keys(changes) as (keyof UserChanges)[]).filter(
    (field) => changes[field] !== undefined && field in columnOfChange,
  );
  const sets = fields.map((field, index) => `${columnOfChange[field]} = $${index + 2}`);
  return {
    name: `users-update:${fields.join(',')}`,
    text: `UPDATE users SET ${[...sets, 'version = version + 1', 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING ${userColumns}`,
    values: [id, ...fields.map((field) => changes[field])],
  };
}

/** The plain-SQL side of the repository: the service's pg pool and its event writer over it. */
export interface PlainUserWrites {
  pool: Pool;
  events: PgEventWriter;
}

/**
 * The repository over the service's database: reads by id and updates without
 * a registry change in plain SQL on `plain`, every other write through `events`
 * (one interactive transaction each: the change, the registry change, the event).
 */
export function userRepository(
  prisma: PrismaClient,
  events: IdentityEvents,
  plain: PlainUserWrites,
): UserRepository {
  /** The shared tail of every write: the registry change, then the events, in `tx`. */
  async function finish(
    tx: Prisma.TransactionClient,
    record: RecordEvents,
    user: UserRecord,
    event: RaiseEvent<UserRecord> | RaiseEvent<UserRecord>[],
    usernames: UsernameChange,
  ): Promise<UserRecord> {
    if (usernames.claim) await claimIn(tx, usernames.claim);
    if (usernames.release) await releaseIn(tx, usernames.release);
    await record(...[event].flat().map((raise) => raise(user)));
    return user;
  }

  return {
    async findById(id) {
      const { rows } = await plain.pool.query<User>({
        name: 'users-by-id',
        text: `SELECT ${userColumns} FROM users WHERE id = $1`,
        values: [id],
      });
      return rows[0] ? toUserRecord(rows[0]) : null;
    },
    async findCreatorByUsername(username) {
      const row = await prisma.user.findFirst({ where: { username, brandId: null } });
      return row ? toUserRecord(row) : null;
    },
    async searchCreators(text, limit) {
      // Prisma hands the text to ILIKE as is (PostgreSQL's escape character is a backslash).
      const literal = text.replace(/[\\%_]/g, (character) => `\\${character}`);
      const rows = await prisma.user.findMany({
        where: {
          brandId: null,
          onboardingBrand: null,
          username: { not: null },
          OR: [
            { username: { startsWith: literal, mode: 'insensitive' } },
            // E-mails are stored lowercased.
            { email: text.toLowerCase() },
          ],
        },
        orderBy: { username: 'asc' },
        take: limit,
      });
      return rows.map(toUserRecord);
    },
    async findIdByEmail(email) {
      return (await prisma.user.findUnique({ where: { email }, select: { id: true } }))?.id ?? null;
    },
    async isEmailTaken(email) {
      return (await prisma.user.count({ where: { email } })) > 0;
    },
    async insertWithEvent(user, event, usernames = {}) {
      return translateDuplicates(() =>
        events.transaction(async (tx, record) =>
          finish(tx, record, toUserRecord(await tx.user.create({ data: user })), event, usernames),
        ),
      );
    },
    async readWithEvent(where, event) {
      return events.transaction(async (tx, record) => {
        const rows = await tx.user.findMany({
          where,
          orderBy: [{ brandIsAdmin: { sort: 'desc', nulls: 'last' } }, { email: 'asc' }],
        });
        const users = rows.map(toUserRecord);
        const row = event(users);
        if (row) await record(row);
        return users;
      });
    },
    async updateWithEvent(id, changes, event, usernames = {}) {
      if (!usernames.claim && !usernames.release)
        return translateDuplicates(() =>
          plain.events.transaction(async (tx, record) => {
            // The row is locked until the commit and read back in the same round trip, so the
            // event carries the version this change made.
            const { rows } = await tx.query<User>(userUpdateStatement(id, changes));
            if (!rows[0]) return null;
            const user = toUserRecord(rows[0]);
            record(...[event].flat().map((raise) => raise(user)));
            return user;
          }),
        );
      return translateDuplicates(() =>
        events.transaction(async (tx, record) => {
          // One UPDATE … RETURNING: the row is locked until the commit and read back in the same
          // round trip, so the event carries the version this change made.
          const row = await tx.user
            .update({ where: { id }, data: { ...changes, version: { increment: 1 } } })
            .catch((error: unknown) => {
              if (isRecordNotFound(error)) return null;
              throw error;
            });
          return row ? finish(tx, record, toUserRecord(row), event, usernames) : null;
        }),
      );
    },
  };
}

/** Prisma's "record to update not found" (P2025). */
const isRecordNotFound = (error: unknown): boolean =>
  (error as { code?: unknown } | null)?.code === 'P2025';

/** The field each unique constraint of the `users` and `usernames` tables guards. */
const fieldByConstraint: Record<string, DuplicateUserError['field']> = {
  users_pkey: 'id',
  users_username_key: 'username',
  users_email_key: 'email',
  usernames_pkey: 'username',
};

/**
 * Runs a write, turning a held username or a unique violation (told apart
 * by the constraint's name) into {@link DuplicateUserError}; other errors,
 * and a violation of a constraint not listed, pass unchanged.
 */
async function translateDuplicates<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UsernameHeldError)
      throw new DuplicateUserError('username', { cause: error });
    const constraint = uniqueViolationOf(error)?.constraint;
    const field = constraint ? fieldByConstraint[constraint] : undefined;
    if (field) throw new DuplicateUserError(field, { cause: error });
    throw error;
  }
}

/** The row as the UserRecord snapshot of `@raly/contracts/records` (spec §3). */
export function toUserRecord(row: User): UserRecord {
  return {
    id: row.id,
    version: row.version,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phoneNumber: row.phoneNumber,
    profileImg: row.profileImg,
    coverImg: row.coverImg,
    interests: row.interests as Interest[],
    socials: { x: row.socialsX, instagram: row.socialsInstagram, threads: row.socialsThreads },
    // A brand-side user keeps the brand steps after leaving a brand (they may join another).
    onboarding:
      row.onboardingBrand !== null
        ? { terms: row.onboardingTerms, brand: row.onboardingBrand ?? false }
        : {
            terms: row.onboardingTerms,
            interests: row.onboardingInterests ?? false,
            connects: row.onboardingConnects ?? false,
            wallet: row.onboardingWallet ?? false,
          },
    permissions: {
      isInfluencer: row.isInfluencer,
      isBoosted: row.isBoosted,
      isVerified: row.isVerified,
      isSuspended: row.isSuspended,
      isAmbassador: row.isAmbassador,
    },
    notifications: { offers: row.notifyOffers, marketing: row.notifyMarketing },
    brand: row.brandId ? { id: row.brandId, isAdmin: row.brandIsAdmin ?? false } : null,
    lastLogin: row.lastLogin?.toISOString() ?? null,
    created: row.created.toISOString(),
  };
}
