/**
 * /settings/account (spec §2): 'Settings' with the side menu; 'Loading' until
 * the user record arrives; then the user's images with their pickers and the
 * account form.
 */
import { messages } from '@raly/contracts/messages';
import { isBrandUser } from '@raly/contracts/records';
import { useProfile } from '@/lib/me-api';
import { Notification } from '@/components/ui/notification';
import { SettingsLayout } from '@/features/settings/components/settings-layout';
import { AccountForm } from '@/features/settings/components/account-form';
import { displayNameOf } from '@/components/layout/current-user';
import { ProfileImages } from '@/features/images/components/profile-images';

export function SettingsAccountRoute() {
  const { me, isLoading, isError } = useProfile();
  return (
    <SettingsLayout>
      {isLoading ? (
        <p className="text-slate-600">Loading</p>
      ) : me ? (
        <div className="space-y-6">
          {/* Profile image for everyone; a cover image for creators (a brand's cover is on /settings/brand). */}
          <ProfileImages
            ownerType="user"
            name={displayNameOf(me.user)}
            profileImg={me.user.profileImg}
            coverImg={isBrandUser(me.user) ? undefined : me.user.coverImg}
          />
          <AccountForm user={me.user} />
        </div>
      ) : isError ? (
        <Notification>{messages.genericProblem}</Notification>
      ) : null}
    </SettingsLayout>
  );
}
