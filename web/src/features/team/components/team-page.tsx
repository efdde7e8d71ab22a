/**
 * /brand/team: the brand's team (docs/api.md "Teams"), followed live. Every
 * member sees the members by handle and role (Admin / Member) and can leave
 * (confirmed); a member without a handle is asked to choose one first.
 * Admins also make members admin or not, remove a member (confirmed),
 * invite by e-mail and cancel pending invitations. Refusals (e.g. the last
 * admin) show the BFF's text in the toast.
 */
import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import type { Me } from '@raly/contracts/bff-api';
import { messages } from '@raly/contracts/messages';
import type { TeamMember, TeamRecord } from '@raly/contracts/teams';
import { paths } from '@/config/paths';
import { api } from '@/lib/api-client';
import { formatDate } from '@/lib/offer-format';
import { useCommandToast } from '@/lib/use-command-toast';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { QueryResult } from '@/components/ui/query-result';
import {
  useCancelInvitationMutation,
  useGetInvitationsQuery,
  useGetTeamQuery,
  useRemoveMemberMutation,
  useSetMemberRoleMutation,
} from '@/features/team/api/team-api';
import { ConfirmDialog } from '@/features/team/components/confirm-dialog';
import { ChooseHandleForm, InviteMemberForm } from '@/features/team/components/team-forms';

/** How a member without a handle shows. */
const noHandle = 'No handle yet';

export function TeamPage({ me }: { me: Me }) {
  const team = useGetTeamQuery();
  return (
    <section className="mx-auto max-w-3xl space-y-8 px-4 py-10 sm:px-6">
      <PageHeading>Team</PageHeading>
      <QueryResult result={team} fallback={messages.genericProblem} framed={false}>
        {(record) => <TeamView team={record} userId={me.user.id} />}
      </QueryResult>
    </section>
  );
}

function TeamView({ team, userId }: { team: TeamRecord; userId: string }) {
  const self = team.members.find((member) => member.userId === userId);
  const isAdmin = self?.isAdmin ?? false;
  return (
    <>
      {self && self.handle === null && <ChooseHandleForm />}
      <MembersList team={team} userId={userId} isAdmin={isAdmin} />
      {isAdmin && <Invitations />}
      {self && <LeaveTeam userId={userId} />}
    </>
  );
}

function MembersList({
  team,
  userId,
  isAdmin,
}: {
  team: TeamRecord;
  userId: string;
  isAdmin: boolean;
}) {
  return (
    <ul
      aria-label="Members"
      className="divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200"
    >
      {team.members.map((member) => (
        <li key={member.userId} className="flex flex-wrap items-center gap-3 px-4 py-3">
          <span className="font-medium text-slate-900">
            {member.handle ?? noHandle}
            {member.userId === userId && <span className="text-slate-500"> (you)</span>}
          </span>
          <Badge tone={member.isAdmin ? 'indigo' : 'neutral'}>
            {member.isAdmin ? 'Admin' : 'Member'}
          </Badge>
          {isAdmin && <MemberActions member={member} self={member.userId === userId} />}
        </li>
      ))}
    </ul>
  );
}

/** An admin's actions on one member: the role, and removal (not of themself: they leave). */
function MemberActions({ member, self }: { member: TeamMember; self: boolean }) {
  const [setRole, role] = useSetMemberRoleMutation();
  const [remove, removal] = useRemoveMemberMutation();
  const [confirming, setConfirming] = useState(false);
  const run = useCommandToast();
  const name = member.handle ?? noHandle;
  const toggleRole = () =>
    run(
      () => setRole({ userId: member.userId, isAdmin: !member.isAdmin }).unwrap(),
      messages.memberRoleChanged,
    );
  const removeMember = async () => {
    await run(() => remove(member.userId).unwrap(), messages.memberRemoved);
    setConfirming(false);
  };
  return (
    <span className="ml-auto flex gap-2">
      <Button
        variant="secondary"
        busy={role.isLoading}
        onClick={toggleRole}
        aria-label={`${member.isAdmin ? 'Remove admin' : 'Make admin'}: ${name}`}
      >
        {member.isAdmin ? 'Remove admin' : 'Make admin'}
      </Button>
      {!self && (
        <>
          <Button variant="ghost" onClick={() => setConfirming(true)} aria-label={`Remove ${name}`}>
            Remove
          </Button>
          <ConfirmDialog
            open={confirming}
            title={`Remove ${name} from the team?`}
            confirmLabel="Remove member"
            busy={removal.isLoading}
            onConfirm={removeMember}
            onClose={() => setConfirming(false)}
          >
            They lose access to the brand at once. Invite them again to bring them back.
          </ConfirmDialog>
        </>
      )}
    </span>
  );
}

/** Admins: the invite form and the pending invitations, each with Cancel. */
function Invitations() {
  const invitations = useGetInvitationsQuery();
  const [cancel] = useCancelInvitationMutation();
  const run = useCommandToast();
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold text-slate-900">Invite a member</h2>
      <InviteMemberForm />
      <QueryResult result={invitations} fallback={messages.genericProblem} framed={false}>
        {(pending) =>
          pending.length === 0 ? (
            <p className="text-sm text-slate-600">No pending invitations.</p>
          ) : (
            <ul aria-label="Pending invitations" className="divide-y divide-slate-200">
              {pending.map((invitation) => (
                <li key={invitation.id} className="flex flex-wrap items-center gap-3 py-2">
                  <span className="text-slate-900">{invitation.email}</span>
                  <span className="text-sm text-slate-500">
                    expires {formatDate(invitation.expiresAt)}
                  </span>
                  <Button
                    variant="ghost"
                    className="ml-auto"
                    aria-label={`Cancel the invitation of ${invitation.email}`}
                    onClick={() =>
                      run(() => cancel(invitation.id).unwrap(), messages.invitationCancelledNotice)
                    }
                  >
                    Cancel
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryResult>
    </div>
  );
}

/** Leaving (confirmed): the caller's user record loses the brand, so /api/me is read again. */
function LeaveTeam({ userId }: { userId: string }) {
  const [remove, removal] = useRemoveMemberMutation();
  const [confirming, setConfirming] = useState(false);
  const run = useCommandToast();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const leave = async () => {
    const left = await run(() => remove(userId).unwrap(), messages.teamLeft);
    setConfirming(false);
    if (!left) return;
    dispatch(api.util.invalidateTags(['Me']));
    navigate(paths.dashboard.path);
  };
  return (
    <div>
      <Button variant="secondary" onClick={() => setConfirming(true)}>
        Leave the team
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Leave the team?"
        confirmLabel="Leave"
        busy={removal.isLoading}
        onConfirm={leave}
        onClose={() => setConfirming(false)}
      >
        You lose access to the brand at once. Only a new invitation brings you back.
      </ConfirmDialog>
    </div>
  );
}
