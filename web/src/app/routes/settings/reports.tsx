/**
 * /settings/reports (docs/console.md "Reports in the browser"): 'Settings' with the side menu and
 * the signed-in person's own reports with the outcome staff chose.
 */
import { SettingsLayout } from '@/features/settings/components/settings-layout';
import { MyReports } from '@/features/settings/components/my-reports';

export function SettingsReportsRoute() {
  return (
    <SettingsLayout>
      <MyReports />
    </SettingsLayout>
  );
}
