/**
 * A brand's team through the BFF (docs/api.md "Teams"): the caller's team
 * (GET /api/brand/team, followed live by `team.updated` while cached, the
 * higher version winning; a change in the number of pending invitations
 * reads the admins' list again), the pending invitations for admins, the admins'
 * commands (invite, cancel, role, remove), the member's own handle and
 * leaving; and, for the invitation link, its preview, registration from it
 * (answered with a TokenSet) and joining it as a signed-in user (→ Me).
 * Every command's team answer goes into the cached team at once.
 */
import type { Me, TokenSet } from '@raly/contracts/bff-api';
import { liveEvents } from '@raly/contracts/live';
import type {
  HandleForm,
  Invitation,
  InvitationPreview,
  InviteForm,
  JoinTeamForm,
  TeamRecord,
} from '@raly/contracts/teams';
import type { MemberRegistration } from '@raly/contracts/validation';
import { api, unwrapData } from '@/lib/api-client';
import { followLive } from '@/lib/follow-live';
import { isNewer } from '@/lib/live-updates';
import { mergeAnswerIntoMe } from '@/lib/me-api';

/** A team and, for admins, its pending invitations (the invitation commands' answer). */
interface TeamWithInvitations {
  team: TeamRecord;
  invitations: Invitation[];
}

/** @returns the newer of the cached team and `incoming` (higher version wins) */
export const newerTeam = (current: TeamRecord | undefined, incoming: TeamRecord): TeamRecord =>
  isNewer(current, incoming) ? incoming : (current as TeamRecord);

export const teamApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/brand/team: members by handle and role, followed live. */
    getTeam: build.query<TeamRecord, void>({
      query: () => '/brand/team',
      transformResponse: unwrapData<TeamRecord>,
      providesTags: ['Team'],
      async onCacheEntryAdded(_arg, lifecycle) {
        await followLive(lifecycle, 'Team', {
          [liveEvents.team]: (team) => {
            let invitationsChanged = false;
            lifecycle.updateCachedData((current) => {
              if (current.id !== team.id || !isNewer(current, team)) return current;
              invitationsChanged = current.pendingInvitations !== team.pendingInvitations;
              return team;
            });
            // Another admin invited or cancelled: the admins' list is read again.
            if (invitationsChanged) lifecycle.dispatch(api.util.invalidateTags(['Invitations']));
          },
        });
      },
    }),
    /** GET /api/brand/invitations (admins): the pending invitations. */
    getInvitations: build.query<Invitation[], void>({
      query: () => '/brand/invitations',
      transformResponse: unwrapData<Invitation[]>,
      providesTags: ['Invitations'],
    }),
    /** POST /api/brand/invitations `{ email }` (admins). */
    invite: build.mutation<TeamWithInvitations, InviteForm>({
      query: (body) => ({ url: '/brand/invitations', method: 'POST', body }),
      transformResponse: unwrapData<TeamWithInvitations>,
      onQueryStarted: (_body, lifecycle) => mergeInvitations(lifecycle),
    }),
    /** DELETE /api/brand/invitations/:id (admins). */
    cancelInvitation: build.mutation<TeamWithInvitations, string>({
      query: (id) => ({ url: `/brand/invitations/${encodeURIComponent(id)}`, method: 'DELETE' }),
      transformResponse: unwrapData<TeamWithInvitations>,
      onQueryStarted: (_id, lifecycle) => mergeInvitations(lifecycle),
    }),
    /** PUT /api/brand/members/me/handle `{ handle }`: the caller's own handle. */
    chooseHandle: build.mutation<TeamRecord, HandleForm>({
      query: (body) => ({ url: '/brand/members/me/handle', method: 'PUT', body }),
      transformResponse: unwrapData<TeamRecord>,
      onQueryStarted: (_body, lifecycle) => mergeTeam(lifecycle),
    }),
    /** PATCH /api/brand/members/:userId `{ isAdmin }` (admins). */
    setMemberRole: build.mutation<TeamRecord, { userId: string; isAdmin: boolean }>({
      query: ({ userId, isAdmin }) => ({
        url: `/brand/members/${encodeURIComponent(userId)}`,
        method: 'PATCH',
        body: { isAdmin },
      }),
      transformResponse: unwrapData<TeamRecord>,
      onQueryStarted: (_body, lifecycle) => mergeTeam(lifecycle),
    }),
    /** DELETE /api/brand/members/:userId: an admin removes a member, or a member leaves (own id). */
    removeMember: build.mutation<TeamRecord, string>({
      query: (userId) => ({
        url: `/brand/members/${encodeURIComponent(userId)}`,
        method: 'DELETE',
      }),
      transformResponse: unwrapData<TeamRecord>,
      onQueryStarted: (_userId, lifecycle) => mergeTeam(lifecycle),
    }),
    /** POST /api/invitations/preview `{ token }` (anyone): the invitation's brand, e-mail, expiry. */
    previewInvitation: build.query<InvitationPreview, string>({
      query: (token) => ({ url: '/invitations/preview', method: 'POST', body: { token } }),
      transformResponse: unwrapData<InvitationPreview>,
    }),
    /** POST /api/accounts/members: registration from an invitation, answered with the TokenSet. */
    registerMember: build.mutation<TokenSet, MemberRegistration>({
      query: (body) => ({ url: '/accounts/members', method: 'POST', body }),
      transformResponse: unwrapData<TokenSet>,
    }),
    /** POST /api/me/team `{ token, handle }`: a signed-in brand-side user without a brand joins. */
    joinTeam: build.mutation<Me, JoinTeamForm>({
      query: (body) => ({ url: '/me/team', method: 'POST', body }),
      transformResponse: unwrapData<Me>,
      onQueryStarted: mergeAnswerIntoMe,
    }),
  }),
});

type Dispatch = Parameters<typeof mergeAnswerIntoMe>[1]['dispatch'];

/** Puts a command's team answer into the cached team (higher version wins). */
async function mergeTeam({
  dispatch,
  queryFulfilled,
}: {
  dispatch: Dispatch;
  queryFulfilled: Promise<{ data: TeamRecord }>;
}): Promise<void> {
  const { data } = await queryFulfilled.catch(() => ({ data: null }));
  if (data)
    dispatch(teamApi.util.updateQueryData('getTeam', undefined, (team) => newerTeam(team, data)));
}

/** Puts an invitation command's answer into the cached team and invitations. */
async function mergeInvitations({
  dispatch,
  queryFulfilled,
}: {
  dispatch: Dispatch;
  queryFulfilled: Promise<{ data: TeamWithInvitations }>;
}): Promise<void> {
  const { data } = await queryFulfilled.catch(() => ({ data: null }));
  if (!data) return;
  dispatch(
    teamApi.util.updateQueryData('getTeam', undefined, (team) => newerTeam(team, data.team)),
  );
  dispatch(teamApi.util.updateQueryData('getInvitations', undefined, () => data.invitations));
}

export const {
  useGetTeamQuery,
  useGetInvitationsQuery,
  useInviteMutation,
  useCancelInvitationMutation,
  useChooseHandleMutation,
  useSetMemberRoleMutation,
  useRemoveMemberMutation,
  usePreviewInvitationQuery,
  useRegisterMemberMutation,
  useJoinTeamMutation,
} = teamApi;
