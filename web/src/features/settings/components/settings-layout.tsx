/**
 * The settings frame of spec §2: the 'Settings' heading and the side menu
 * (Account always; Brand Profile only for brand users; Notifications always,
 * docs/product-spec.md §12.5; Reports always, docs/console.md "Reports") next to the page.
 */
import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { isBrandUser } from '@raly/contracts/records';
import { paths } from '@/config/paths';
import { useGetMeQuery } from '@/lib/me-api';
import { focusRing } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';

const menuLinkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-2 text-sm font-medium ${focusRing} ${
    isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700 hover:bg-slate-100'
  }`;

export function SettingsLayout({ children }: { children: ReactNode }) {
  const { data: me } = useGetMeQuery();
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <PageHeading>Settings</PageHeading>
      <div className="mt-8 grid gap-8 md:grid-cols-[12rem_1fr]">
        <nav aria-label="Settings">
          <ul className="space-y-1">
            <li>
              <NavLink to={paths.settingsAccount.path} className={menuLinkClass}>
                Account
              </NavLink>
            </li>
            {me && isBrandUser(me.user) && (
              <li>
                <NavLink to={paths.settingsBrand.path} className={menuLinkClass}>
                  Brand Profile
                </NavLink>
              </li>
            )}
            <li>
              <NavLink to={paths.settingsNotifications.path} className={menuLinkClass}>
                Notifications
              </NavLink>
            </li>
            <li>
              <NavLink to={paths.settingsReports.path} className={menuLinkClass}>
                Reports
              </NavLink>
            </li>
          </ul>
        </nav>
        <section>{children}</section>
      </div>
    </div>
  );
}
