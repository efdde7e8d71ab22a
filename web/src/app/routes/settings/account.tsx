/** /settings/account (spec §2): 'Settings' with the side menu; 'Loading' until the user record arrives. */
import { messages } from '@raly/contracts/messages';
import { useGetMeQuery } from '@/lib/me-api';
import { Notification } from '@/components/ui/notification';
import { SettingsLayout } from '@/features/settings/components/settings-layout';
import { AccountForm } from '@/features/settings/components/account-form';

export function SettingsAccountRoute() {
  const { data: me, isLoading, isError } = useGetMeQuery();
  return (
    <SettingsLayout>
      {isLoading ? (
        <p className="text-slate-600">Loading</p>
      ) : me ? (
        <AccountForm user={me.user} />
      ) : isError ? (
        <Notification>{messages.genericProblem}</Notification>
      ) : null}
    </SettingsLayout>
  );
}
