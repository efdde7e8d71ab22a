/**
 * User records in Postgres (the only module that touches the `users` table
 * through Prisma). Every write commits the change, the username registry
 * change the domain asked for (`./username-registry`) and the integration
 * event the domain chose (`../domain/events`), built from the written
 * snapshot, in one transaction through the service's event writer
 * (@raly/service-kit/outbox), with the record's version incremented.
 */
import type { UserRecord } from '@raly/contracts/records';
import type { Interest } from '@raly/contracts/constants';
import { uniqueViolationOf } from '@raly/service-kit/errors';
import type { OutboxRow, RaiseEvent, RecordEvents } from '@raly/service-kit/outbox';
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

/**
 * The repository over the service's Prisma client; writes go through `events`
 * (one interactive transaction each: the change, the registry change, the event).
 */
export function userRepository(prisma: PrismaClient, events: IdentityEvents): UserRepository {
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
      const row = await prisma.user.findUnique({ where: { id } });
      return row ? toUserRecord(row) : null;
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
