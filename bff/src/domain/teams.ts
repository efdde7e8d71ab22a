/**
 * A brand's team through the BFF (docs/api.md "Teams"): the caller's brand
 * always comes from their user record. services/brand applies every change;
 * its fresh team snapshot goes into the read model and to the brand's room
 * (`applySnapshot`), so every member's tabs follow it live. When a member
 * leaves or is removed, identity-profile's record of that user follows at
 * once (`syncMembership`) and its snapshot goes into the read model too:
 * from then on the BFF refuses them the brand's data (no brand on their
 * record), and the team's push takes their sockets out of the brand's room.
 */
import type { Me } from '@raly/contracts/bff-api';
import type { Invitation, InvitationPreview, TeamRecord } from '@raly/contracts/teams';
import type { Caller } from '@raly/service-kit/auth';
import type { HttpCallOptions } from '@raly/service-kit/internal';
import { myBrandId, type BrandDependencies } from './brands';
import { answerWith } from './me';
import { answerWithNewest } from './record-store';

/** A team and, for admins, its pending invitations. */
export interface TeamWithInvitations {
  team: TeamRecord;
  invitations: Invitation[];
}

/** One team call to services/brand as the caller, on the caller's brand. */
async function teamCall<T>(
  dependencies: BrandDependencies,
  caller: Caller,
  method: HttpCallOptions['method'],
  path: string[],
  body?: unknown,
): Promise<{ brandId: string; data: T }> {
  const brandId = await myBrandId(dependencies, caller);
  const data = await dependencies.brands.team<T>(caller.accessToken, brandId, method, path, body);
  return { brandId, data };
}

/**
 * GET /api/brand/team: the caller's team (members by handle and role).
 * @throws AppError permission-denied (no brand, not a member), as services/brand answered
 */
export async function getMyTeam(
  dependencies: BrandDependencies,
  caller: Caller,
): Promise<TeamRecord> {
  const { data } = await teamCall<TeamRecord>(dependencies, caller, 'GET', ['team']);
  return answerWithNewest(dependencies.records, 'team', data);
}

/** GET /api/brand/invitations (admins): the pending invitations. */
export async function listMyInvitations(
  dependencies: BrandDependencies,
  caller: Caller,
): Promise<Invitation[]> {
  return (await teamCall<Invitation[]>(dependencies, caller, 'GET', ['invitations'])).data;
}

/**
 * POST /api/brand/invitations `{ email }` (admins); DELETE /api/brand/invitations/:id (admins).
 * @returns the team (newest known) and the pending invitations
 */
export async function changeInvitations(
  dependencies: BrandDependencies,
  caller: Caller,
  change: { invite: unknown } | { cancel: string },
): Promise<TeamWithInvitations> {
  const { data } =
    'invite' in change
      ? await teamCall<TeamWithInvitations>(
          dependencies,
          caller,
          'POST',
          ['invitations'],
          change.invite ?? {},
        )
      : await teamCall<TeamWithInvitations>(dependencies, caller, 'DELETE', [
          'invitations',
          change.cancel,
        ]);
  return {
    team: await answerWithNewest(dependencies.records, 'team', data.team),
    invitations: data.invitations,
  };
}

/** PUT /api/brand/members/me/handle `{ handle }`: the caller's handle. */
export async function chooseMyHandle(
  dependencies: BrandDependencies,
  caller: Caller,
  body: unknown,
): Promise<TeamRecord> {
  const { data } = await teamCall<TeamRecord>(
    dependencies,
    caller,
    'PUT',
    ['members', 'me', 'handle'],
    body ?? {},
  );
  return answerWithNewest(dependencies.records, 'team', data);
}

/**
 * PATCH /api/brand/members/:userId `{ isAdmin }` (admins) and DELETE
 * /api/brand/members/:userId (admins; the caller's own id: leave). The
 * member's user record follows at once.
 * @throws AppError as services/brand answered (403, 404, 409 the last admin)
 */
export async function changeMember(
  dependencies: BrandDependencies,
  caller: Caller,
  memberId: string,
  role?: unknown,
): Promise<TeamRecord> {
  const { brandId, data } =
    role === undefined
      ? await teamCall<TeamRecord>(dependencies, caller, 'DELETE', ['members', memberId])
      : await teamCall<TeamRecord>(dependencies, caller, 'PATCH', ['members', memberId], role);
  // The member's record first: the team's push then finds no brand room to rejoin.
  const member = await dependencies.identity.syncMembership(memberId, brandId);
  await answerWithNewest(dependencies.records, 'user', member);
  return answerWithNewest(dependencies.records, 'team', data);
}

/** POST /api/invitations/preview `{ token }` (anyone): the invitation's brand and e-mail. */
export function previewInvitation(
  dependencies: Pick<BrandDependencies, 'identity'>,
  body: unknown,
): Promise<InvitationPreview> {
  return dependencies.identity.previewInvitation(body);
}

/**
 * POST /api/me/team `{ token, handle }`: a signed-in brand-side user without a brand joins.
 * @returns the caller's records after joining (brand set)
 * @throws AppError as identity-profile answered (403 a creator, 409 already in a brand, the invitation's refusal)
 */
export async function joinTeam(
  dependencies: BrandDependencies,
  caller: Caller,
  body: unknown,
): Promise<Me> {
  const record = await dependencies.identity.joinTeam(caller.accessToken, body);
  return answerWith(dependencies, caller, record);
}
