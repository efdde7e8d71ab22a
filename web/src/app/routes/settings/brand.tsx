/**
 * /settings/brand ('brand-profile', spec §2, §6): brand users only; a
 * non-brand user is sent to the account page. The brand's cover and
 * profile images with their pickers, then the brand profile form; 'Loading'
 * while the records load.
 */
import { Navigate } from 'react-router-dom';
import { messages } from '@raly/contracts/messages';
import { isBrandUser } from '@raly/contracts/records';
import { paths } from '@/config/paths';
import { useProfile } from '@/lib/me-api';
import { Notification } from '@/components/ui/notification';
import { SettingsLayout } from '@/features/settings/components/settings-layout';
import { BrandProfileForm } from '@/features/brand-profile/components/brand-profile-form';
import { ProfileImages } from '@/features/images/components/profile-images';

export function SettingsBrandRoute() {
  const { me, isLoading, isError } = useProfile();
  if (me && !isBrandUser(me.user)) return <Navigate to={paths.settingsAccount.path} replace />;
  const brand = me?.brand;
  return (
    <SettingsLayout>
      {isLoading ? (
        <p className="text-slate-600">Loading</p>
      ) : brand ? (
        <div className="space-y-6">
          <ProfileImages
            ownerType="brand"
            name={brand.company}
            profileImg={brand.profileImg}
            coverImg={brand.coverImg}
          />
          <BrandProfileForm brand={brand} />
        </div>
      ) : isError || me ? (
        <Notification>{messages.genericProblem}</Notification>
      ) : null}
    </SettingsLayout>
  );
}
