/**
 * Brands as teams: members see the team by handle and role; admins invite
 * teammates by e-mail, list and cancel pending invitations, make members
 * admin or not and remove them; every member may leave and choose their
 * handle; the last admin can neither leave, be removed nor be demoted.
 * Every change is one `brand.team.updated` event (../data-access/team-repository).
 *
 * Inviting: admin → limit per brand (INVITATIONS_PER_WINDOW an hour) → a random token
 *   (256 bits) stored as its sha256, valid INVITATION_TTL_MS → the link
 *   `${webUrl}/join/team?token=…` e-mailed; the mail names the brand, never the inviter
 *   ↳ the mail failed → the invitation is cancelled.
 * Joining (identity-profile's saga calls `POST /invitations/accept`): claim the
 *   handle in identity-profile's registry (owner type `member`) → spend the
 *   invitation and add the member (+ event, one transaction)
 *   ↳ refused → release the handle.
 * Handles: claim the new one → save → release the old one (as brand usernames).
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  INVITATION_RATE_WINDOW_MS,
  INVITATION_TTL_MS,
  INVITATIONS_PER_WINDOW,
} from '@raly/contracts/constants';
import {
  acceptInvitationCommandSchema,
  handleFormSchema,
  invitationPreviewRequestSchema,
  inviteFormSchema,
  memberRoleSchema,
  type Invitation,
  type InvitationPreview,
  type TeamChange,
  type TeamChangeKind,
  type TeamRecord,
} from '@raly/contracts/teams';
import { normalizeEmail, normalizeUsername } from '@raly/contracts/validation';
import { AppError } from '@raly/service-kit/errors';
import { escapeHtml, type Mail } from '@raly/service-kit/mail';
import { UsernameTakenError } from '../data-access/identity-client';
import {
  DuplicateHandleError,
  type InvitationRow,
  type MemberRow,
} from '../data-access/team-repository';
import type { BrandDependencies } from './dependencies';
import { brandErrors } from './errors';
import { teamUpdatedEvent } from './events';

/** A team and, for admins, its pending invitations. */
export interface TeamWithInvitations {
  team: TeamRecord;
  invitations: Invitation[];
}

/** The stored form of an invitation token: sha256, hex. */
export const hashInvitationToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/**
 * `GET /brands/:id/team`: the team as its members see it.
 * @throws AppError not-found (no brand), permission-denied (not a member)
 */
export async function getTeam(
  dependencies: BrandDependencies,
  brandId: string,
  userId: string,
): Promise<TeamRecord> {
  await memberOrRefuse(dependencies, brandId, userId);
  return teamOrNotFound(await dependencies.teams.findTeam(brandId));
}

/**
 * `GET /brands/:id/invitations` (admins): the pending invitations, newest first.
 * @throws AppError permission-denied (not an admin)
 */
export async function listInvitations(
  dependencies: BrandDependencies,
  brandId: string,
  userId: string,
): Promise<Invitation[]> {
  await adminOrRefuse(dependencies, brandId, userId);
  return dependencies.teams.listPendingInvitations(brandId, new Date());
}

/**
 * `POST /brands/:id/invitations` (admins): invites a teammate by e-mail.
 * @param input `{ email }` (`inviteFormSchema`), unparsed
 * @returns the team (its pending count) and the pending invitations
 * @throws AppError invalid-argument, permission-denied, resource-exhausted
 *   'Too many invitations sent. Try again later.', internal (mail not sent; the invitation is cancelled)
 */
export async function inviteTeammate(
  dependencies: BrandDependencies,
  brandId: string,
  userId: string,
  input: unknown,
): Promise<TeamWithInvitations> {
  const email = normalizeEmail(inviteFormSchema.parse(input).email);
  const admin = await adminOrRefuse(dependencies, brandId, userId);
  const brand = await dependencies.brands.findById(brandId);
  if (!brand) throw brandErrors.brandNotFound();
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  const invited = await dependencies.teams.invite(
    brandId,
    { email, tokenHash: hashInvitationToken(token), expiresAt: new Date(now + INVITATION_TTL_MS) },
    { since: new Date(now - INVITATION_RATE_WINDOW_MS), max: INVITATIONS_PER_WINDOW },
    changeBy('invited', admin, null),
    teamUpdatedEvent,
  );
  if (invited === 'rate-limited') throw brandErrors.tooManyInvitations();
  if (!invited) throw brandErrors.brandNotFound();
  try {
    await dependencies.mailer.send(
      invitationMail(email, brand.company, invitationLink(dependencies.webUrl, token)),
    );
  } catch (error) {
    await dependencies.teams
      .cancelInvitation(
        brandId,
        invited.invitationId,
        changeBy('invitation-cancelled', admin, null),
        teamUpdatedEvent,
      )
      .catch((cancelError: unknown) =>
        dependencies.logger.error({ err: cancelError, brandId }, 'unsent invitation not cancelled'),
      );
    throw brandErrors.invitationMailFailed(error);
  }
  return withInvitations(dependencies, brandId, invited.team);
}

/**
 * `DELETE /brands/:id/invitations/:invitationId` (admins): cancels a pending invitation.
 * @throws AppError permission-denied, not-found 'This invitation does not exist.'
 */
export async function cancelInvitation(
  dependencies: BrandDependencies,
  brandId: string,
  userId: string,
  invitationId: string,
): Promise<TeamWithInvitations> {
  const admin = await adminOrRefuse(dependencies, brandId, userId);
  const team = await dependencies.teams.cancelInvitation(
    brandId,
    invitationId,
    changeBy('invitation-cancelled', admin, null),
    teamUpdatedEvent,
  );
  if (team === 'invitation-not-found') throw brandErrors.invitationNotFound();
  return withInvitations(dependencies, brandId, teamOrNotFound(team));
}

/**
 * `PATCH /brands/:id/members/:userId` (admins): makes the member admin or not.
 * @param input `{ isAdmin }`, unparsed
 * @throws AppError permission-denied, not-found (no such member), conflict (the last admin)
 */
export async function setMemberRole(
  dependencies: BrandDependencies,
  brandId: string,
  userId: string,
  memberId: string,
  input: unknown,
): Promise<TeamRecord> {
  const { isAdmin } = memberRoleSchema.parse(input);
  const admin = await adminOrRefuse(dependencies, brandId, userId);
  const target = await dependencies.teams.findMember(brandId, memberId);
  if (!target) throw brandErrors.memberNotFound();
  if (target.isAdmin === isAdmin) return teamOrNotFound(await dependencies.teams.findTeam(brandId));
  const team = await dependencies.teams.setRole(
    brandId,
    memberId,
    isAdmin,
    changeBy(isAdmin ? 'promoted' : 'demoted', admin, target),
    teamUpdatedEvent,
  );
  return teamOrNotFound(refusedOrTeam(team));
}

/**
 * `DELETE /brands/:id/members/:userId`: an admin removes a member, or a
 * member (`memberId` = the caller) leaves. Their handle is released.
 * @throws AppError permission-denied (another member, not an admin), not-found, conflict (the last admin)
 */
export async function removeMember(
  dependencies: BrandDependencies,
  brandId: string,
  userId: string,
  memberId: string,
): Promise<TeamRecord> {
  const leaving = memberId === userId;
  const actor = leaving
    ? await memberOrRefuse(dependencies, brandId, userId)
    : await adminOrRefuse(dependencies, brandId, userId);
  const target = leaving ? actor : await dependencies.teams.findMember(brandId, memberId);
  if (!target) throw brandErrors.memberNotFound();
  const removed = await dependencies.teams.removeMember(
    brandId,
    memberId,
    changeBy(leaving ? 'left' : 'removed', actor, target),
    teamUpdatedEvent,
  );
  const outcome = refusedOrTeam(removed);
  if (outcome === null) throw brandErrors.brandNotFound();
  if (outcome.removed.handle !== null)
    await releaseHandle(dependencies, outcome.removed.handle, memberId);
  return outcome.team;
}

/**
 * `PUT /brands/:id/members/me/handle`: the caller chooses their handle
 * (username rules, unique among usernames and handles).
 * @param input `{ handle }`, unparsed
 * @throws AppError invalid-argument, permission-denied, username-taken 'Username already exists. Try another.'
 */
export async function chooseHandle(
  dependencies: BrandDependencies,
  brandId: string,
  userId: string,
  input: unknown,
): Promise<TeamRecord> {
  const handle = normalizeUsername(handleFormSchema.parse(input).handle);
  const member = await memberOrRefuse(dependencies, brandId, userId);
  if (member.handle === handle) return teamOrNotFound(await dependencies.teams.findTeam(brandId));
  await claimHandle(dependencies, handle, userId);
  let team: Awaited<ReturnType<BrandDependencies['teams']['setHandle']>>;
  try {
    team = await dependencies.teams.setHandle(
      brandId,
      userId,
      handle,
      changeBy('handle-chosen', { ...member, handle }, { ...member, handle }),
      teamUpdatedEvent,
    );
  } catch (error) {
    await releaseHandle(dependencies, handle, userId);
    if (error instanceof DuplicateHandleError) throw brandErrors.usernameTaken(error);
    throw error;
  }
  if (team === null || team === 'not-member') {
    await releaseHandle(dependencies, handle, userId);
    throw team === null ? brandErrors.brandNotFound() : brandErrors.notATeamMember();
  }
  if (member.handle !== null) await releaseHandle(dependencies, member.handle, userId);
  return team;
}

/**
 * `POST /invitations/preview` (BFF, identity-profile): what an invitation's landing page shows.
 * @param input `{ token }`, unparsed
 * @throws AppError not-found (unknown token), conflict (expired, used or cancelled: each its message)
 */
export async function previewInvitation(
  dependencies: BrandDependencies,
  input: unknown,
): Promise<InvitationPreview> {
  const { token } = invitationPreviewRequestSchema.parse(input);
  const invitation = usableInvitation(
    await dependencies.teams.findInvitation(hashInvitationToken(token)),
    new Date(),
  );
  return {
    brandId: invitation.brandId,
    company: invitation.company,
    brandUsername: invitation.brandUsername,
    email: invitation.email,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

/**
 * `POST /invitations/accept` (identity-profile, while it registers or joins a user).
 * @param input `acceptInvitationCommandSchema`, unparsed
 * @returns the brand joined and its team
 * @throws AppError invalid-argument (e-mail not the invited one), not-found, conflict (expired,
 *   used, cancelled, already in a brand), username-taken (the handle)
 */
export async function acceptInvitation(
  dependencies: BrandDependencies,
  input: unknown,
): Promise<{ brandId: string; team: TeamRecord }> {
  const command = acceptInvitationCommandSchema.parse(input);
  const email = normalizeEmail(command.email);
  const handle = normalizeUsername(command.handle);
  const tokenHash = hashInvitationToken(command.token);
  const invitation = usableInvitation(
    await dependencies.teams.findInvitation(tokenHash),
    new Date(),
  );
  if (invitation.email !== email) throw brandErrors.invitationEmailMismatch();
  await claimHandle(dependencies, handle, command.userId);
  const member = { userId: command.userId, handle, isAdmin: false };
  let team: Awaited<ReturnType<BrandDependencies['teams']['acceptInvitation']>>;
  try {
    team = await dependencies.teams.acceptInvitation(
      tokenHash,
      { userId: command.userId, email, handle },
      new Date(),
      () => changeBy('joined', member, member),
      teamUpdatedEvent,
    );
  } catch (error) {
    await releaseHandle(dependencies, handle, command.userId);
    if (error instanceof DuplicateHandleError) throw brandErrors.usernameTaken(error);
    throw error;
  }
  if (team === null || typeof team === 'string') {
    await releaseHandle(dependencies, handle, command.userId);
    if (team === 'already-member') throw brandErrors.alreadyInABrand();
    // Spent, cancelled or expired between the check and the write: say which.
    usableInvitation(await dependencies.teams.findInvitation(tokenHash), new Date());
    throw brandErrors.invitationInvalid();
  }
  return { brandId: invitation.brandId, team };
}

/** The invitation when it can still be used at `now`. @throws AppError with the reason it cannot */
function usableInvitation(invitation: InvitationRow | null, now: Date): InvitationRow {
  if (!invitation) throw brandErrors.invitationInvalid();
  if (invitation.usedAt) throw brandErrors.invitationUsed();
  if (invitation.cancelledAt) throw brandErrors.invitationCancelled();
  if (invitation.expiresAt <= now) throw brandErrors.invitationExpired();
  return invitation;
}

async function memberOrRefuse(
  dependencies: BrandDependencies,
  brandId: string,
  userId: string,
): Promise<MemberRow> {
  const member = await dependencies.teams.findMember(brandId, userId);
  if (!member) throw brandErrors.notATeamMember();
  return member;
}

async function adminOrRefuse(
  dependencies: BrandDependencies,
  brandId: string,
  userId: string,
): Promise<MemberRow> {
  const member = await memberOrRefuse(dependencies, brandId, userId);
  if (!member.isAdmin) throw brandErrors.notAnAdmin();
  return member;
}

/** A change made by `actor` to `target` (by handle). */
function changeBy(
  kind: TeamChangeKind,
  actor: Pick<MemberRow, 'handle'>,
  target: Pick<MemberRow, 'userId' | 'handle'> | null,
): TeamChange {
  return {
    kind,
    userId: target?.userId ?? null,
    handle: target?.handle ?? null,
    byHandle: actor.handle,
  };
}

/** @throws AppError for a refusal of the repository (nothing was written) */
function refusedOrTeam<T>(outcome: T | 'not-member' | 'last-admin'): T {
  if (outcome === 'not-member') throw brandErrors.memberNotFound();
  if (outcome === 'last-admin') throw brandErrors.lastAdmin();
  return outcome;
}

function teamOrNotFound(team: TeamRecord | null): TeamRecord {
  if (!team) throw brandErrors.brandNotFound();
  return team;
}

async function withInvitations(
  dependencies: BrandDependencies,
  brandId: string,
  team: TeamRecord,
): Promise<TeamWithInvitations> {
  return {
    team,
    invitations: await dependencies.teams.listPendingInvitations(brandId, new Date()),
  };
}

async function claimHandle(
  dependencies: BrandDependencies,
  handle: string,
  userId: string,
): Promise<void> {
  try {
    await dependencies.identity.claimUsername(handle, userId, 'member');
  } catch (error) {
    if (error instanceof UsernameTakenError) throw brandErrors.usernameTaken(error);
    if (error instanceof AppError) throw error;
    throw brandErrors.updateFailed(error);
  }
}

/** Best effort: a failure leaves a handle reserved for nobody, so it is logged loudly. */
async function releaseHandle(
  dependencies: BrandDependencies,
  handle: string,
  userId: string,
): Promise<void> {
  try {
    await dependencies.identity.releaseUsername(handle, userId, 'member');
  } catch (error) {
    dependencies.logger.error({ err: error, userId, handle }, 'handle release failed');
  }
}

/** `${webUrl}/join/team?token=…`: the invitation's landing page. */
export function invitationLink(webUrl: string, token: string): string {
  const url = new URL('/join/team', webUrl);
  url.search = new URLSearchParams({ token }).toString();
  return url.toString();
}

/** The invitation: names the brand, never who sent it. */
function invitationMail(to: string, company: string, link: string): Mail {
  const days = Math.round(INVITATION_TTL_MS / 86_400_000);
  return {
    to,
    subject: `Join ${company} on Raly`,
    text: [
      'Hello,',
      '',
      `You are invited to join the team of ${company} on Raly.`,
      'Follow this link to accept:',
      '',
      link,
      '',
      `The link works once and expires in ${days} days.`,
      "If you didn't expect this invitation, you can ignore this e-mail.",
      '',
    ].join('\n'),
    html: [
      '<p>Hello,</p>',
      `<p>You are invited to join the team of ${escapeHtml(company)} on Raly.</p>`,
      `<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>`,
      `<p>The link works once and expires in ${days} days.<br>`,
      "If you didn't expect this invitation, you can ignore this e-mail.</p>",
    ].join('\n'),
  };
}
