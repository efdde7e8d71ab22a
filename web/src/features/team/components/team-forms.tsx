/**
 * The team page's two small forms (shared contracts schemas): an admin
 * invites by e-mail (`inviteFormSchema`, POST /api/brand/invitations), and a
 * member without a handle chooses one (`handleFormSchema`, PUT
 * /api/brand/members/me/handle). Outcomes show in the toast with the
 * contracts' messages (or the BFF's error text).
 */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { messages } from '@raly/contracts/messages';
import {
  handleFormSchema,
  inviteFormSchema,
  type HandleForm,
  type InviteForm,
} from '@raly/contracts/teams';
import { useCommandToast } from '@/lib/use-command-toast';
import { normalizingUsername } from '@/lib/username-field';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { useChooseHandleMutation, useInviteMutation } from '@/features/team/api/team-api';

/** Admins: the e-mail of the person to invite; cleared once the invitation is sent. */
export function InviteMemberForm() {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<InviteForm>({
    resolver: zodResolver(inviteFormSchema),
    defaultValues: { email: '' },
  });
  const [invite] = useInviteMutation();
  const run = useCommandToast();
  const onSubmit = async (values: InviteForm) => {
    const sent = await run(() => invite(values).unwrap(), messages.invitationSent);
    if (sent) reset();
  };
  return (
    <form
      noValidate
      onSubmit={handleSubmit(onSubmit)}
      aria-label="Invite a member"
      className="flex flex-wrap items-end gap-3"
    >
      <div className="min-w-64 flex-1">
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          error={errors.email?.message}
          {...register('email')}
        />
      </div>
      <Button type="submit" busy={isSubmitting}>
        Send invitation
      </Button>
    </form>
  );
}

/** A member without a handle (a brand's founder) chooses the handle the team sees. */
export function ChooseHandleForm() {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<HandleForm>({
    resolver: zodResolver(handleFormSchema),
    defaultValues: { handle: '' },
  });
  const [chooseHandle] = useChooseHandleMutation();
  const run = useCommandToast();
  const onSubmit = async (values: HandleForm) => {
    await run(() => chooseHandle(values).unwrap(), messages.handleSaved);
  };
  return (
    <form
      noValidate
      onSubmit={handleSubmit(onSubmit)}
      aria-label="Choose your handle"
      className="space-y-3 rounded-xl bg-amber-50 p-4 ring-1 ring-amber-200"
    >
      <p className="text-sm text-amber-900">
        {messages.handleRequired} Your team sees you by your handle only.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <TextField
            label="Handle"
            autoComplete="off"
            error={errors.handle?.message}
            {...normalizingUsername(register('handle'))}
          />
        </div>
        <Button type="submit" busy={isSubmitting}>
          Save handle
        </Button>
      </div>
    </form>
  );
}
