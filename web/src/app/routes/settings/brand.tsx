/** /settings/brand (spec §2): brand users only; a non-brand user is sent to the account page. The form comes with the brands issue. */
import { Navigate } from 'react-router-dom';
import { isBrandUser } from '@raly/contracts/records';
import { paths } from '@/config/paths';
import { useGetMeQuery } from '@/lib/me-api';
import { SettingsLayout } from '@/features/settings/components/settings-layout';

export function SettingsBrandRoute() {
  const { data: me, isLoading } = useGetMeQuery();
  if (me && !isBrandUser(me.user)) return <Navigate to={paths.settingsAccount.path} replace />;
  return (
    <SettingsLayout>
      <p className="text-slate-600">{isLoading ? 'Loading' : 'Brand profile coming soon.'}</p>
    </SettingsLayout>
  );
}
