/**
 * Brand records and their members in Postgres (the only module that touches
 * the `brands` and `brand_members` tables). Every write commits the change
 * and the integration event the domain chose (`../domain/events`), built
 * from the written snapshot, in one transaction through the service's event
 * writer (@raly/service-kit/outbox), with the record's version incremented.
 */
import type { BrandRecord } from '@raly/contracts/records';
import type { ImageKind } from '@raly/contracts/images';
import { uniqueViolationOf } from '@raly/service-kit/errors';
import { withdrawPendingEvents, type RaiseEvent } from '@raly/service-kit/outbox';
import type { Brand, PrismaClient } from '../generated/prisma/client';
import type { BrandEvents } from './database';

/** The brands' unique username index refused a write. */
export class DuplicateBrandUsernameError extends Error {
  constructor(options?: ErrorOptions) {
    super('duplicate brand username', options);
    this.name = 'DuplicateBrandUsernameError';
  }
}

export interface NewBrand {
  creatorUserId: string;
  username: string;
  company: string;
  websiteUrl: string;
}

/** The brand profile form's columns (spec §5). */
export type BrandChanges = Partial<
  Pick<
    Brand,
    | 'username'
    | 'company'
    | 'websiteUrl'
    | 'bio'
    | 'socialsX'
    | 'socialsInstagram'
    | 'socialsThreads'
    | 'socialsDiscord'
  >
>;

/**
 * A staff decision (docs/console.md): the verified badge, a suspension or its lifting (with
 * when, by whom and why), an administrator's flags.
 */
export type BrandVerificationChange = Partial<
  Pick<
    Brand,
    'isVerified' | 'isSuspended' | 'suspendedAt' | 'suspendedBy' | 'suspensionReason' | 'isAgency'
  >
>;

export interface BrandRepository {
  findById(id: string): Promise<BrandRecord | null>;
  findByUsername(username: string): Promise<BrandRecord | null>;
  /**
   * Brands whose username starts with `text` or whose company contains it, both ignoring case,
   * by username; `%`, `_` and `\\` in `text` are matched literally.
   * @param limit most brands answered
   */
  search(text: string, limit: number): Promise<BrandRecord[]>;
  /** The user ids of the brand's members (none for an unknown brand). */
  listMemberIds(brandId: string): Promise<string[]>;
  /** The user's membership of the brand, or null when not a member. */
  findMembership(brandId: string, userId: string): Promise<{ isAdmin: boolean } | null>;
  /**
   * Creates the brand, its creator as admin member and `event(snapshot)`
   * in one transaction; a brand already made for `creatorUserId` is returned as is.
   * @param event the event the creation raises (`brandCreatedEvent`)
   * @returns the brand and whether this call created it
   * @throws DuplicateBrandUsernameError when another brand holds the username
   */
  createWithEvent(
    brand: NewBrand,
    event: RaiseEvent<BrandRecord>,
  ): Promise<{ brand: BrandRecord; created: boolean }>;
  /**
   * Deletes the brand with its members and withdraws its events not yet
   * published (saga compensation). A missing brand is fine.
   */
  delete(id: string): Promise<void>;
  /**
   * Applies the changes, increments the version and records `event(snapshot)`, in one transaction.
   * @param event the event the change raises (`brandUpdatedEvent`), or its events in order (a
   *   staff decision: the snapshot and the decision's audit entry), each built from the snapshot
   * @returns the new snapshot, or null when no such brand exists (nothing is written)
   * @throws DuplicateBrandUsernameError
   */
  updateWithEvent(
    id: string,
    changes: BrandChanges | BrandVerificationChange,
    event: RaiseEvent<BrandRecord> | RaiseEvent<BrandRecord>[],
  ): Promise<BrandRecord | null>;
  /**
   * Sets profileImg or coverImg to `url` with `event(snapshot)`, unless
   * it already is `url` or (`onlyIfEmpty`) already holds an image.
   * @returns the new snapshot, or null when nothing changed or no such brand exists
   */
  setImageWithEvent(
    id: string,
    kind: ImageKind,
    url: string,
    onlyIfEmpty: boolean,
    event: RaiseEvent<BrandRecord>,
  ): Promise<BrandRecord | null>;
}

/** The repository over the service's Prisma client; writes go through `events`. */
export function brandRepository(prisma: PrismaClient, events: BrandEvents): BrandRepository {
  return {
    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await prisma.brand.findUnique({ where: { id } });
      return row ? toBrandRecord(row) : null;
    },
    async findByUsername(username) {
      const row = await prisma.brand.findUnique({ where: { username } });
      return row ? toBrandRecord(row) : null;
    },
    async search(text, limit) {
      // Prisma hands the text to ILIKE as is (PostgreSQL's escape character is a backslash).
      const literal = text.replace(/[\\%_]/g, (character) => `\\${character}`);
      const rows = await prisma.brand.findMany({
        where: {
          OR: [
            { username: { startsWith: literal, mode: 'insensitive' } },
            { company: { contains: literal, mode: 'insensitive' } },
          ],
        },
        orderBy: { username: 'asc' },
        take: limit,
      });
      return rows.map(toBrandRecord);
    },
    async listMemberIds(brandId) {
      if (!isUuid(brandId)) return [];
      const members = await prisma.brandMember.findMany({
        where: { brandId },
        select: { userId: true },
        orderBy: { created: 'asc' },
      });
      return members.map((member) => member.userId);
    },
    async findMembership(brandId, userId) {
      if (!isUuid(brandId)) return null;
      const member = await prisma.brandMember.findUnique({
        where: { brandId_userId: { brandId, userId } },
      });
      return member ? { isAdmin: member.isAdmin } : null;
    },
    async createWithEvent(brand, event) {
      const existing = await prisma.brand.findUnique({
        where: { creatorUserId: brand.creatorUserId },
      });
      if (existing) return { brand: toBrandRecord(existing), created: false };
      try {
        const record = await events.transaction(async (tx, recordEvent) => {
          const row = await tx.brand.create({
            data: { ...brand, members: { create: { userId: brand.creatorUserId, isAdmin: true } } },
          });
          const snapshot = toBrandRecord(row);
          await recordEvent(event(snapshot));
          return snapshot;
        });
        return { brand: record, created: true };
      } catch (error) {
        const clash = fieldOfDuplicate(error);
        if (clash === 'username') throw new DuplicateBrandUsernameError({ cause: error });
        if (clash !== 'creatorUserId') throw error;
        // A retry with the same idempotency key raced us: answer its brand.
        const raced = await prisma.brand.findUnique({
          where: { creatorUserId: brand.creatorUserId },
        });
        if (raced) return { brand: toBrandRecord(raced), created: false };
        throw error;
      }
    },
    async delete(id) {
      if (!isUuid(id)) return;
      await prisma.$transaction(async (tx) => {
        await tx.brand.deleteMany({ where: { id } });
        await withdrawPendingEvents(tx, id);
      });
    },
    async updateWithEvent(id, changes, event) {
      try {
        return await events.transaction(async (tx, recordEvent) => {
          const { count } = await tx.brand.updateMany({
            where: { id },
            data: { ...changes, version: { increment: 1 } },
          });
          if (count === 0) return null;
          const record = toBrandRecord(await tx.brand.findUniqueOrThrow({ where: { id } }));
          await recordEvent(...[event].flat().map((raise) => raise(record)));
          return record;
        });
      } catch (error) {
        if (fieldOfDuplicate(error) === 'username')
          throw new DuplicateBrandUsernameError({ cause: error });
        throw error;
      }
    },
    async setImageWithEvent(id, kind, url, onlyIfEmpty, event) {
      if (!isUuid(id)) return null;
      const column = kind === 'profile' ? 'profileImg' : 'coverImg';
      const unlessAlready = onlyIfEmpty ? { [column]: '' } : { NOT: { [column]: url } };
      return events.transaction(async (tx, recordEvent) => {
        const { count } = await tx.brand.updateMany({
          where: { id, ...unlessAlready },
          data: { [column]: url, version: { increment: 1 } },
        });
        if (count === 0) return null;
        const record = toBrandRecord(await tx.brand.findUniqueOrThrow({ where: { id } }));
        await recordEvent(event(record));
        return record;
      });
    },
  };
}

/** True when `value` is a UUID (ids of brands and invitations; anything else matches no row). */
export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** The field each unique constraint of the `brands` table guards. */
const fieldByConstraint: Record<string, 'username' | 'creatorUserId' | 'id'> = {
  brands_pkey: 'id',
  brands_username_key: 'username',
  brands_creator_user_id_key: 'creatorUserId',
};

/** The field whose unique constraint (told by its name) refused a write, or undefined. */
function fieldOfDuplicate(error: unknown): 'username' | 'creatorUserId' | 'id' | undefined {
  const constraint = uniqueViolationOf(error)?.constraint;
  return constraint ? fieldByConstraint[constraint] : undefined;
}

/** The row as the BrandRecord snapshot of `@raly/contracts/records` (spec §3): brand fields only. */
export function toBrandRecord(row: Brand): BrandRecord {
  return {
    id: row.id,
    version: row.version,
    username: row.username,
    company: row.company,
    websiteUrl: row.websiteUrl,
    profileImg: row.profileImg,
    coverImg: row.coverImg,
    bio: row.bio,
    socials: {
      x: row.socialsX,
      instagram: row.socialsInstagram,
      threads: row.socialsThreads,
      discord: row.socialsDiscord,
    },
    permissions: {
      isAgency: row.isAgency,
      isVerified: row.isVerified,
      isSuspended: row.isSuspended,
    },
    created: row.created.toISOString(),
  };
}
