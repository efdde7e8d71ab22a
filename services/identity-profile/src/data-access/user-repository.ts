/**
 * User records in Postgres (the only module that touches the `users` and
 * `outbox` tables through Prisma). Every write commits the change and its
 * integration event (the full snapshot, see `../messaging/user-events`) in
 * one transaction, with the record's version incremented.
 */
import type { UserRecord } from '@raly/contracts/records';
import type { Interest } from '@raly/contracts/constants';
import { Prisma, type PrismaClient, type User } from '../generated/prisma/client';
import { userCreatedEvent, userUpdatedEvent } from '../messaging/user-events';

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
  /** The id of the user with this (normalised) e-mail, or null. */
  findIdByEmail(email: string): Promise<string | null>;
  isUsernameTaken(username: string): Promise<boolean>;
  isEmailTaken(email: string): Promise<boolean>;
  /**
   * Inserts the user and its `identity.user.created` event in one transaction.
   * @throws DuplicateUserError when username, e-mail or id already exist
   */
  insertWithEvent(user: NewUser): Promise<UserRecord>;
  /**
   * Applies the changes, increments the version and records
   * `identity.user.updated`, in one transaction.
   * @returns the new snapshot, or null when no such user exists
   * @throws DuplicateUserError when the new username or e-mail is taken
   */
  updateWithEvent(id: string, changes: UserChanges): Promise<UserRecord | null>;
}

/** The repository over the service's Prisma client. */
export function userRepository(prisma: PrismaClient): UserRepository {
  return {
    async findById(id) {
      const row = await prisma.user.findUnique({ where: { id } });
      return row ? toUserRecord(row) : null;
    },
    async findIdByEmail(email) {
      return (await prisma.user.findUnique({ where: { email }, select: { id: true } }))?.id ?? null;
    },
    async isUsernameTaken(username) {
      // The registry holds creators' and brands' usernames (spec §5: unique across both).
      return (await prisma.usernameClaim.count({ where: { username } })) > 0;
    },
    async isEmailTaken(email) {
      return (await prisma.user.count({ where: { email } })) > 0;
    },
    async insertWithEvent(user) {
      return translateDuplicates(() =>
        prisma.$transaction(async (tx) => {
          const record = toUserRecord(await tx.user.create({ data: user }));
          await tx.outboxMessage.create({ data: userCreatedEvent(record) });
          return record;
        }),
      );
    },
    async updateWithEvent(id, changes) {
      return translateDuplicates(() =>
        prisma.$transaction(async (tx) => {
          const { count } = await tx.user.updateMany({
            where: { id },
            data: { ...changes, version: { increment: 1 } },
          });
          if (count === 0) return null;
          const record = toUserRecord(await tx.user.findUniqueOrThrow({ where: { id } }));
          await tx.outboxMessage.create({ data: userUpdatedEvent(record) });
          return record;
        }),
      );
    },
  };
}

/** Runs a write, turning a unique violation into {@link DuplicateUserError}. */
export async function translateDuplicates<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new DuplicateUserError(duplicateField(error), { cause: error });
    }
    throw error;
  }
}

/** Which unique index refused the write (the adapter reports the index name). */
function duplicateField(error: Prisma.PrismaClientKnownRequestError): DuplicateUserError['field'] {
  const text = `${JSON.stringify(error.meta ?? {})} ${error.message}`;
  if (text.includes('username')) return 'username';
  if (text.includes('email')) return 'email';
  return 'id';
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
