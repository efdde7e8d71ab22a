/**
 * Brand teams in Postgres (tables `brand_members` and `brand_invitations`,
 * and the `team_version` of `brands`): the only module that writes them.
 * Every change runs in one transaction that first bumps the brand's team
 * version, which locks the brand's row: a team's changes are serialised, so
 * the last-admin rule and the invitation limit cannot be raced. The change
 * commits with its `brand.team.updated` snapshot (the event the domain
 * hands in) through the service's event writer, or not at all.
 */
import type { Invitation, TeamChange, TeamRecord } from '@raly/contracts/teams';
import { uniqueViolationOf } from '@raly/service-kit/errors';
import type { RaiseEvent } from '@raly/service-kit/outbox';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { isUuid } from './brand-repository';
import type { BrandEvents } from './database';

type Tx = Prisma.TransactionClient;

/** Another member holds the handle (the registry should have said so first). */
export class DuplicateHandleError extends Error {
  constructor(options?: ErrorOptions) {
    super('duplicate member handle', options);
    this.name = 'DuplicateHandleError';
  }
}

/** A member of a brand, as the rules need them. */
export interface MemberRow {
  userId: string;
  isAdmin: boolean;
  handle: string | null;
}

/** An invitation found by its token's hash, with its brand's public names. */
export interface InvitationRow {
  id: string;
  brandId: string;
  email: string;
  expiresAt: Date;
  usedAt: Date | null;
  cancelledAt: Date | null;
  company: string;
  brandUsername: string;
}

/** Why a change was not made (nothing was written). */
export type TeamRefusal =
  | 'not-member'
  | 'last-admin'
  | 'rate-limited'
  | 'invitation-not-found'
  | 'invitation-unusable'
  | 'already-member';

export interface TeamRepository {
  /** The team of the brand, or null when no such brand exists. */
  findTeam(brandId: string, now?: Date): Promise<TeamRecord | null>;
  /** One member of the brand, or null. */
  findMember(brandId: string, userId: string): Promise<MemberRow | null>;
  /** The brand's invitations neither used, cancelled nor expired at `now`, newest first. */
  listPendingInvitations(brandId: string, now: Date): Promise<Invitation[]>;
  /** The invitation whose token hashes to `tokenHash`, or null. */
  findInvitation(tokenHash: string): Promise<InvitationRow | null>;
  /**
   * Stores an invitation, unless the brand stored `limit.max` since `limit.since`.
   * @returns the team after it, 'rate-limited', or null when no such brand exists
   */
  invite(
    brandId: string,
    invitation: { email: string; tokenHash: string; expiresAt: Date },
    limit: { since: Date; max: number },
    change: TeamChange,
    event: RaiseEvent<TeamRecord>,
  ): Promise<{ team: TeamRecord; invitationId: string } | 'rate-limited' | null>;
  /** Cancels a pending invitation of the brand. @returns the team, 'invitation-not-found', or null */
  cancelInvitation(
    brandId: string,
    invitationId: string,
    change: TeamChange,
    event: RaiseEvent<TeamRecord>,
  ): Promise<TeamRecord | 'invitation-not-found' | null>;
  /**
   * Spends the invitation (unused, not cancelled, unexpired at `now`, for
   * `member.email`) and makes `member` a member of its brand, not admin.
   * @returns the team, 'invitation-unusable' (read the invitation to say why), 'already-member',
   *   or null when no such invitation exists
   * @throws DuplicateHandleError
   */
  acceptInvitation(
    tokenHash: string,
    member: { userId: string; email: string; handle: string },
    now: Date,
    change: (brandId: string) => TeamChange,
    event: RaiseEvent<TeamRecord>,
  ): Promise<TeamRecord | 'invitation-unusable' | 'already-member' | null>;
  /**
   * Makes the member admin or not; the last admin cannot stop being one.
   * @returns the team, 'not-member', 'last-admin', or null when no such brand exists
   */
  setRole(
    brandId: string,
    userId: string,
    isAdmin: boolean,
    change: TeamChange,
    event: RaiseEvent<TeamRecord>,
  ): Promise<TeamRecord | 'not-member' | 'last-admin' | null>;
  /**
   * Removes the member (left or removed); the last admin cannot go.
   * @returns the team and the member as they were, 'not-member', 'last-admin', or null
   */
  removeMember(
    brandId: string,
    userId: string,
    change: TeamChange,
    event: RaiseEvent<TeamRecord>,
  ): Promise<{ team: TeamRecord; removed: MemberRow } | 'not-member' | 'last-admin' | null>;
  /**
   * Sets the member's handle.
   * @returns the team, 'not-member', or null when no such brand exists
   * @throws DuplicateHandleError
   */
  setHandle(
    brandId: string,
    userId: string,
    handle: string,
    change: TeamChange,
    event: RaiseEvent<TeamRecord>,
  ): Promise<TeamRecord | 'not-member' | null>;
}

/** Rolls a team change back: `work` refused it. */
class Refused extends Error {
  constructor(readonly reason: TeamRefusal) {
    super(reason);
  }
}

/** The repository over the service's Prisma client; writes go through `events`. */
export function teamRepository(prisma: PrismaClient, events: BrandEvents): TeamRepository {
  /**
   * One team change: bump (and lock) the brand's team version, run `work`,
   * record the new snapshot's event. `work` throws {@link Refused} to roll back.
   */
  async function changeTeam<T>(
    brandId: string,
    event: RaiseEvent<TeamRecord>,
    work: (tx: Tx) => Promise<{ change: TeamChange; extra: T }>,
  ): Promise<{ team: TeamRecord; extra: T } | TeamRefusal | null> {
    if (!isUuid(brandId)) return null;
    try {
      return await events.transaction(async (tx, recordEvent) => {
        const { count } = await tx.brand.updateMany({
          where: { id: brandId },
          data: { teamVersion: { increment: 1 } },
        });
        if (count === 0) return null;
        const { change, extra } = await work(tx);
        const team = await teamOf(tx, brandId, change, new Date());
        if (!team) return null;
        await recordEvent(event(team));
        return { team, extra };
      });
    } catch (error) {
      if (error instanceof Refused) return error.reason;
      if (uniqueViolationOf(error)?.constraint === 'brand_members_handle_key')
        throw new DuplicateHandleError({ cause: error });
      throw error;
    }
  }

  const teamOnly = async (outcome: Awaited<ReturnType<typeof changeTeam<unknown>>>) =>
    outcome && typeof outcome === 'object' ? outcome.team : outcome;

  return {
    findTeam: (brandId, now = new Date()) =>
      isUuid(brandId) ? teamOf(prisma, brandId, null, now) : Promise.resolve(null),
    async findMember(brandId, userId) {
      if (!isUuid(brandId)) return null;
      return prisma.brandMember.findUnique({
        where: { brandId_userId: { brandId, userId } },
        select: { userId: true, isAdmin: true, handle: true },
      });
    },
    async listPendingInvitations(brandId, now) {
      if (!isUuid(brandId)) return [];
      const rows = await prisma.brandInvitation.findMany({
        where: { brandId, ...pendingAt(now) },
        orderBy: { created: 'desc' },
      });
      return rows.map((row) => ({
        id: row.id,
        email: row.email,
        expiresAt: row.expiresAt.toISOString(),
        created: row.created.toISOString(),
      }));
    },
    async findInvitation(tokenHash) {
      const row = await prisma.brandInvitation.findUnique({
        where: { tokenHash },
        include: { brand: { select: { company: true, username: true } } },
      });
      if (!row) return null;
      const { brand, ...invitation } = row;
      return { ...invitation, company: brand.company, brandUsername: brand.username };
    },
    async invite(brandId, invitation, limit, change, event) {
      const outcome = await changeTeam(brandId, event, async (tx) => {
        const sent = await tx.brandInvitation.count({
          where: { brandId, created: { gte: limit.since } },
        });
        if (sent >= limit.max) throw new Refused('rate-limited');
        const row = await tx.brandInvitation.create({ data: { brandId, ...invitation } });
        return { change, extra: row.id };
      });
      if (outcome === null || typeof outcome === 'string') return outcome as 'rate-limited' | null;
      return { team: outcome.team, invitationId: outcome.extra };
    },
    async cancelInvitation(brandId, invitationId, change, event) {
      if (!isUuid(invitationId)) return 'invitation-not-found';
      return (await teamOnly(
        await changeTeam(brandId, event, async (tx) => {
          const { count } = await tx.brandInvitation.updateMany({
            where: { id: invitationId, brandId, ...pendingAt(new Date()) },
            data: { cancelledAt: new Date() },
          });
          if (count === 0) throw new Refused('invitation-not-found');
          return { change, extra: null };
        }),
      )) as TeamRecord | 'invitation-not-found' | null;
    },
    async acceptInvitation(tokenHash, member, now, change, event) {
      const invitation = await prisma.brandInvitation.findUnique({ where: { tokenHash } });
      if (!invitation) return null;
      return (await teamOnly(
        await changeTeam(invitation.brandId, event, async (tx) => {
          const { count } = await tx.brandInvitation.updateMany({
            where: { tokenHash, email: member.email, ...pendingAt(now) },
            data: { usedAt: now, usedBy: member.userId },
          });
          if (count === 0) throw new Refused('invitation-unusable');
          const existing = await tx.brandMember.count({ where: { userId: member.userId } });
          if (existing > 0) throw new Refused('already-member');
          await tx.brandMember.create({
            data: {
              brandId: invitation.brandId,
              userId: member.userId,
              handle: member.handle,
              isAdmin: false,
            },
          });
          return { change: change(invitation.brandId), extra: null };
        }),
      )) as TeamRecord | 'invitation-unusable' | 'already-member' | null;
    },
    async setRole(brandId, userId, isAdmin, change, event) {
      return (await teamOnly(
        await changeTeam(brandId, event, async (tx) => {
          const member = await memberIn(tx, brandId, userId);
          if (!isAdmin && member.isAdmin) await assertAnotherAdmin(tx, brandId, userId);
          await tx.brandMember.update({
            where: { brandId_userId: { brandId, userId } },
            data: { isAdmin },
          });
          return { change, extra: null };
        }),
      )) as TeamRecord | 'not-member' | 'last-admin' | null;
    },
    async removeMember(brandId, userId, change, event) {
      const outcome = await changeTeam(brandId, event, async (tx) => {
        const member = await memberIn(tx, brandId, userId);
        if (member.isAdmin) await assertAnotherAdmin(tx, brandId, userId);
        await tx.brandMember.delete({ where: { brandId_userId: { brandId, userId } } });
        return { change, extra: member };
      });
      if (outcome === null || typeof outcome === 'string')
        return outcome as 'not-member' | 'last-admin' | null;
      return { team: outcome.team, removed: outcome.extra };
    },
    async setHandle(brandId, userId, handle, change, event) {
      return (await teamOnly(
        await changeTeam(brandId, event, async (tx) => {
          await memberIn(tx, brandId, userId);
          await tx.brandMember.update({
            where: { brandId_userId: { brandId, userId } },
            data: { handle },
          });
          return { change, extra: null };
        }),
      )) as TeamRecord | 'not-member' | null;
    },
  };
}

/** Pending at `now`: neither used, cancelled nor expired. */
const pendingAt = (now: Date) => ({ usedAt: null, cancelledAt: null, expiresAt: { gt: now } });

async function memberIn(tx: Tx, brandId: string, userId: string): Promise<MemberRow> {
  const member = await tx.brandMember.findUnique({
    where: { brandId_userId: { brandId, userId } },
    select: { userId: true, isAdmin: true, handle: true },
  });
  if (!member) throw new Refused('not-member');
  return member;
}

/** @throws Refused 'last-admin' when `userId` is the brand's only admin */
async function assertAnotherAdmin(tx: Tx, brandId: string, userId: string): Promise<void> {
  const others = await tx.brandMember.count({
    where: { brandId, isAdmin: true, NOT: { userId } },
  });
  if (others === 0) throw new Refused('last-admin');
}

/** The team snapshot as `db` sees it (inside a transaction: with its change). */
async function teamOf(
  db: Pick<Tx, 'brand' | 'brandMember' | 'brandInvitation'>,
  brandId: string,
  lastChange: TeamChange | null,
  now: Date,
): Promise<TeamRecord | null> {
  const brand = await db.brand.findUnique({
    where: { id: brandId },
    select: { teamVersion: true },
  });
  if (!brand) return null;
  // One after the other: inside a transaction both use its one connection.
  const members = await db.brandMember.findMany({
    where: { brandId },
    orderBy: [{ created: 'asc' }, { userId: 'asc' }],
  });
  const pendingInvitations = await db.brandInvitation.count({
    where: { brandId, ...pendingAt(now) },
  });
  return {
    id: brandId,
    version: brand.teamVersion,
    members: members.map((member) => ({
      userId: member.userId,
      handle: member.handle,
      isAdmin: member.isAdmin,
      joined: member.created.toISOString(),
    })),
    pendingInvitations,
    lastChange,
  };
}
