/**
 * /settings/notifications (docs/product-spec.md §12.5): 'Settings' with the
 * side menu; 'Loading' until the user record and the preferences arrive; then
 * the table of notification categories by channel.
 */
import { messages } from '@raly/contracts/messages';
import { isBrandUser } from '@raly/contracts/records';
import { useProfile } from '@/lib/me-api';
import { Notification } from '@/components/ui/notification';
import { SettingsLayout } from '@/features/settings/components/settings-layout';
import { NotificationPreferencesForm } from '@/features/settings/components/notification-preferences-form';
import { useGetNotificationPreferencesQuery } from '@/features/settings/api/notification-preferences-api';

export function SettingsNotificationsRoute() {
  const profile = useProfile();
  const preferences = useGetNotificationPreferencesQuery();
  const me = profile.me;
  return (
    <SettingsLayout>
      {me && preferences.data ? (
        <NotificationPreferencesForm
          preferences={preferences.data}
          brandUser={isBrandUser(me.user)}
          offersOn={me.user.notifications.offers}
        />
      ) : profile.isError || preferences.isError ? (
        <Notification>{messages.genericProblem}</Notification>
      ) : (
        <p className="text-slate-600">Loading</p>
      )}
    </SettingsLayout>
  );
}
