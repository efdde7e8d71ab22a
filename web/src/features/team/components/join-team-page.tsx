/**
 * /join/team?token=…: the landing page of a brand's invitation (docs/api.md
 * "Teams"). It previews the invitation (POST /api/invitations/preview: the
 * brand's company, the invited e-mail, the expiry); a link that is invalid,
 * expired, used or cancelled shows the BFF's message. A visitor registers
 * as a member (`memberRegistrationSchema`, POST /api/accounts/members) and is
 * signed in with the answered TokenSet, as on /join/brand; a signed-in user
 * without a brand joins with a handle (POST /api/me/team); a signed-in user
 * already in a brand is told so, and a signed-in creator is told at once
 * (the message POST /api/me/team refuses them with) and offered to sign out
 * (docs/product-spec.md §13).
 */
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDispatch } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { z } from 'zod';
import { messages } from '@raly/contracts/messages';
import { isBrandUser, isCreatorAccount } from '@raly/contracts/records';
import { joinTeamSchema, type InvitationPreview, type JoinTeamForm } from '@raly/contracts/teams';
import { memberRegistrationSchema } from '@raly/contracts/validation';
import { paths } from '@/config/paths';
import { apiErrorMessage } from '@/lib/api-error';
import { formatDate } from '@/lib/offer-format';
import { showToast } from '@/lib/toast';
import { useGetMeQuery } from '@/lib/me-api';
import { signOut } from '@/lib/session';
import { useSession } from '@/lib/use-session';
import { normalizingUsername } from '@/lib/username-field';
import { useScrollToTopOnError } from '@/lib/use-scroll-to-top-on-error';
import { Button } from '@/components/ui/button';
import { Notification } from '@/components/ui/notification';
import { PageSpinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { LoginPrompt, NameFields, NewPasswordFields } from '@/components/auth/account-fields';
import { useRegisterAndSignIn } from '@/lib/use-register-and-sign-in';
import {
  useJoinTeamMutation,
  usePreviewInvitationQuery,
  useRegisterMemberMutation,
} from '@/features/team/api/team-api';

export function JoinTeamPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const preview = usePreviewInvitationQuery(token, { skip: !token });
  if (!token) return <Notification>{messages.invitationInvalid}</Notification>;
  if (preview.isLoading) return <PageSpinner />;
  if (!preview.data)
    return (
      <Notification>{apiErrorMessage(preview.error, messages.invitationInvalid)}</Notification>
    );
  return (
    <div className="space-y-6">
      <InvitationSummary invitation={preview.data} />
      <JoinChoice token={token} invitation={preview.data} />
    </div>
  );
}

function InvitationSummary({ invitation }: { invitation: InvitationPreview }) {
  return (
    <div data-testid="invitation-preview" className="space-y-1 text-slate-700">
      <p>
        <strong className="text-slate-900">{invitation.company}</strong> invites{' '}
        <strong className="text-slate-900">{invitation.email}</strong> to join its team on Raly.
      </p>
      <p className="text-sm text-slate-500">
        This invitation expires on {formatDate(invitation.expiresAt)}.
      </p>
    </div>
  );
}

/** The visitor registers; a signed-in user joins, unless a creator or already in a brand. */
function JoinChoice({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const session = useSession();
  const me = useGetMeQuery(undefined, { skip: session.status !== 'signed-in' });
  if (session.status !== 'signed-in')
    return <MemberRegistrationForm token={token} email={invitation.email} />;
  if (!me.data) return me.isLoading ? <PageSpinner /> : null;
  if (isCreatorAccount(me.data.user)) return <CreatorCannotJoin />;
  if (isBrandUser(me.data.user)) return <Notification>{messages.alreadyInABrand}</Notification>;
  return <JoinAsMeForm token={token} />;
}

/**
 * A signed-in creator: the refusal the API would answer, shown before any
 * submit, and a way out: signing out stays on the invitation, whose
 * registration form then shows.
 */
function CreatorCannotJoin() {
  return (
    <div className="space-y-4">
      <Notification>{messages.creatorCannotJoinBrand}</Notification>
      <Button type="button" variant="secondary" onClick={() => void signOut()}>
        Log out to join with another account
      </Button>
    </div>
  );
}

type MemberValues = z.input<typeof memberRegistrationSchema>;

function MemberRegistrationForm({ token, email }: { token: string; email: string }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<MemberValues>({
    resolver: zodResolver(memberRegistrationSchema) as unknown as Resolver<MemberValues>,
    defaultValues: {
      token,
      handle: '',
      email,
      password: '',
      confirmPassword: '',
      firstName: '',
      lastName: '',
      agreeTerms: false,
    },
  });
  const [registerMember] = useRegisterMemberMutation();
  const { signingIn, registerAndSignIn } = useRegisterAndSignIn();
  const scrollToTop = useScrollToTopOnError();
  const onSubmit = (values: MemberValues) =>
    registerAndSignIn(() =>
      registerMember(values as z.output<typeof memberRegistrationSchema>).unwrap(),
    );

  return (
    <form
      noValidate
      aria-label="Join as a member"
      onSubmit={handleSubmit(onSubmit, scrollToTop)}
      className="space-y-5"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <NameFields register={register} errors={errors} />
      </div>
      <TextField
        label="Handle"
        autoComplete="username"
        error={errors.handle?.message}
        {...normalizingUsername(register('handle'))}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <NewPasswordFields register={register} errors={errors} />
      {errors.token?.message && <Notification>{errors.token.message}</Notification>}
      <Button type="submit" busy={isSubmitting || signingIn} className="w-full">
        Join the team
      </Button>
      <LoginPrompt />
    </form>
  );
}

/** A signed-in brand-side user without a brand joins with a handle. */
function JoinAsMeForm({ token }: { token: string }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<JoinTeamForm>({
    resolver: zodResolver(joinTeamSchema),
    defaultValues: { token, handle: '' },
  });
  const [joinTeam] = useJoinTeamMutation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const onSubmit = async (values: JoinTeamForm) => {
    try {
      await joinTeam(values).unwrap();
      navigate(paths.brandTeam.path);
    } catch (error) {
      const message = apiErrorMessage(error, messages.genericProblem);
      dispatch(showToast({ type: 'alert', message }));
    }
  };
  return (
    <form
      noValidate
      aria-label="Join the team"
      onSubmit={handleSubmit(onSubmit)}
      className="space-y-5"
    >
      <TextField
        label="Handle"
        autoComplete="off"
        error={errors.handle?.message}
        {...normalizingUsername(register('handle'))}
      />
      <Button type="submit" busy={isSubmitting} className="w-full">
        Join the team
      </Button>
    </form>
  );
}
