/**
 * The full route table of spec §2. Each route carries its RouteMeta
 * (config/paths) as `handle`, which the root layout reads for the page
 * title and the sign-in guard.
 */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { paths, type RouteMeta } from '@/config/paths';
import { RootLayout } from '@/app/root-layout';
import { HomeRoute } from '@/app/routes/home';
import { JoinCreatorRoute, JoinBrandRoute } from '@/app/routes/join';
import { LoginRoute } from '@/app/routes/login';
import { DashboardRoute } from '@/app/routes/dashboard';
import { PlaceholderRoute } from '@/app/routes/placeholder';
import { SettingsAccountRoute } from '@/app/routes/settings/account';
import { SettingsBrandRoute } from '@/app/routes/settings/brand';
import { NotFoundRoute } from '@/app/routes/not-found';

const page = (meta: RouteMeta, element: RouteObject['element']): RouteObject => ({
  path: meta.path,
  handle: meta,
  element,
});

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      page(paths.home, <HomeRoute />),
      page(paths.join, <Navigate to={paths.joinCreator.path} replace />),
      page(paths.joinCreator, <JoinCreatorRoute />),
      page(paths.joinBrand, <JoinBrandRoute />),
      page(paths.login, <LoginRoute />),
      page(paths.forgotPassword, <PlaceholderRoute title={paths.forgotPassword.title} />),
      page(paths.dashboard, <DashboardRoute />),
      page(paths.authAction, <PlaceholderRoute title={paths.authAction.title} />),
      page(paths.settings, <Navigate to={paths.settingsAccount.path} replace />),
      page(paths.settingsAccount, <SettingsAccountRoute />),
      page(paths.settingsBrand, <SettingsBrandRoute />),
      page(paths.onboarding, <PlaceholderRoute title={paths.onboarding.title} />),
      page(paths.notFound, <NotFoundRoute />),
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
