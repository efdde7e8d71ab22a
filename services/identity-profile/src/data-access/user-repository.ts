/**
 * User records in Postgres (the only module that touches the `users` table
 * through Prisma). Every write commits the change, the username registry
 * change the domain asked for (`./username-registry`) and the integration
 * event the domain chose (`../domain/events`), built from the written
 * snapshot, in one transaction, with the record's version incremented.
 */
import type { Pool } from 'pg';
import type { UserRecord } from '@raly/contracts/records';
import type { Interest } from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import { AppError, isDatabaseDataError, uniqueViolationOf } from '@raly/service-kit/errors';
import type { RaiseEvent } from '@raly/service-kit/outbox';
import { Prisma, type PrismaClient, type User } from '../generated/prisma/client';
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
    | 'lastLogin'
  >
>;

export interface UserRepository {
  findById(id: string): Promise<UserRecord | null>;
  /** The creator (a user without a brand) holding this stored-form username, or null (issue 9). */
  findCreatorByUsername(username: string): Promise<UserRecord | null>;
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
   * @param event the event the change raises (`userUpdatedEvent`)
   * @param usernames the new username to claim and the old one to release
   * @returns the new snapshot, or null when no such user exists (nothing is written)
   * @throws DuplicateUserError when the new username or e-mail is taken
   */
  updateWithEvent(
    id: string,
    changes: UserChanges,
    event: RaiseEvent<UserRecord>,
    usernames?: UsernameChange,
  ): Promise<UserRecord | null>;
}

/**
 * The `users` column of a field: the schema maps every camelCase field to
 * its snake_case column (`firstName` → `first_name`; `id`, `email` as is).
 */
const columnOf = (field: string): string =>
  field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Every column of `users`, named as Prisma's `User` fields (`first_name AS "firstName"`). */
const userColumns = Object.values(Prisma.UserScalarFieldEnum)
  .map((field) => `${columnOf(field)} AS "${field}"`)
  .join(', ');

/**
 * How often the one-statement update is tried when the row changed between its read and its
 * write; after that the update runs in a transaction that takes the row's lock (never a 500
 * for contention: the chaos run and the bench saw one user's PATCHes overtake each other).
 */
const UPDATE_ATTEMPTS = 5;

/**
 * The repository over the service's Prisma client.
 * @param pool the pg pool under the client: when given, reading a user by id
 *   and an update without a username change run as hand-written SQL on it,
 *   the update as one statement with its outbox row (issue 10); otherwise
 *   everything goes through Prisma
 */
export function userRepository(prisma: PrismaClient, pool?: Pool): UserRepository {
  /** The shared tail of every write: the registry change, then the event, in `tx`. */
  async function finish(
    tx: Prisma.TransactionClient,
    record: UserRecord,
    event: RaiseEvent<UserRecord>,
    usernames: UsernameChange,
  ): Promise<UserRecord> {
    if (usernames.claim) await claimIn(tx, usernames.claim);
    if (usernames.release) await releaseIn(tx, usernames.release);
    await tx.outboxMessage.create({ data: event(record) });
    return record;
  }
  /** The row by id through `pool`. @throws AppError invalid-argument for a value Postgres refuses */
  const readRow = async (db: Pool, id: string): Promise<User | null> => {
    const { rows } = await refusingBadValues(() =>
      db.query<User>(`SELECT ${userColumns} FROM users WHERE id = $1`, [id]),
    );
    return rows[0] ?? null;
  };

  /**
   * An update without a username change in one statement: the row is read,
   * the new snapshot and its event built from it, and the UPDATE (only if the
   * version is still the one read: no lost update) and the outbox INSERT (only
   * if the UPDATE matched) run as one statement, so they commit together. A
   * version that moved meanwhile means another change won: read and try again.
   * @returns the written record, null when there is no such user, or
   *   `undefined` when the row moved under every attempt (heavy contention on
   *   one user: the caller takes the row-locking path instead)
   */
  const updateInOneStatement = async (
    db: Pool,
    id: string,
    changes: UserChanges,
    event: RaiseEvent<UserRecord>,
  ): Promise<UserRecord | null | undefined> => {
    const fields = Object.keys(changes) as (keyof UserChanges)[];
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt += 1) {
      const row = await readRow(db, id);
      if (!row) return null;
      const record = toUserRecord({ ...row, ...changes, version: row.version + 1 });
      const message = event(record);
      const sets = fields.map((field, index) => `${columnOf(field)} = $${index + 3}`);
      const at = fields.length + 3;
      const { rowCount } = await refusingBadValues(() =>
        db.query(
          `WITH updated AS (
             UPDATE users SET ${[...sets, 'version = version + 1', 'updated_at = now()'].join(', ')}
              WHERE id = $1 AND version = $2
             RETURNING id)
           INSERT INTO outbox (id, topic, key, event_type, envelope, traceparent, tracestate)
           SELECT $${at}, $${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}::jsonb, $${at + 5}, $${at + 6}
             FROM updated`,
          [
            id,
            row.version,
            ...fields.map((field) => changes[field]),
            message.id,
            message.topic,
            message.key,
            message.eventType,
            JSON.stringify(message.envelope),
            message.traceparent ?? null,
            message.tracestate ?? null,
          ],
        ),
      );
      if (rowCount === 1) return record;
    }
    return undefined;
  };

  return {
    async findById(id) {
      const row = pool ? await readRow(pool, id) : await prisma.user.findUnique({ where: { id } });
      return row ? toUserRecord(row) : null;
    },
    async findCreatorByUsername(username) {
      const row = await prisma.user.findFirst({ where: { username, brandId: null } });
      return row ? toUserRecord(row) : null;
    },
    async findIdByEmail(email) {
      return (await prisma.user.findUnique({ where: { email }, select: { id: true } }))?.id ?? null;
    },
    async isEmailTaken(email) {
      return (await prisma.user.count({ where: { email } })) > 0;
    },
    async insertWithEvent(user, event, usernames = {}) {
      return translateDuplicates(() =>
        prisma.$transaction(async (tx) =>
          finish(tx, toUserRecord(await tx.user.create({ data: user })), event, usernames),
        ),
      );
    },
    async updateWithEvent(id, changes, event, usernames = {}) {
      if (pool && !usernames.claim && !usernames.release) {
        const written = await translateDuplicates(() =>
          updateInOneStatement(pool, id, changes, event),
        );
        // Contended past every attempt: the transaction below waits for the row's lock instead.
        if (written !== undefined) return written;
      }
      return translateDuplicates(() =>
        prisma.$transaction(async (tx) => {
          // One UPDATE … RETURNING: the written row, no second read (issue 10).
          const row = await tx.user
            .update({ where: { id }, data: { ...changes, version: { increment: 1 } } })
            .catch((error: unknown) => {
              if (isRecordNotFound(error)) return null;
              throw error;
            });
          return row ? finish(tx, toUserRecord(row), event, usernames) : null;
        }),
      );
    },
  };
}

/**
 * Runs a query written by hand, turning a value Postgres refuses (SQLSTATE
 * class 22) into AppError `invalid-argument`, as the service's Prisma client
 * does (@raly/service-kit/database).
 */
async function refusingBadValues<T>(query: () => Promise<T>): Promise<T> {
  try {
    return await query();
  } catch (error) {
    if (!isDatabaseDataError(error)) throw error;
    throw new AppError('invalid-argument', messages.requestProblem, { cause: error });
  }
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
    onboarding: row.brandId
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
