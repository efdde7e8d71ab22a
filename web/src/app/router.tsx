/**
 * The full route table of spec §2, the offers and the collaborations pages, for the declarative
 * router (`<BrowserRouter>` + `useRoutes`): the data router
 * (`createBrowserRouter`) would add ~17 KiB (gzip) to the first page for
 * loaders and actions the app does not use. Each route's path comes from its
 * RouteMeta (config/paths), which the root layout matches again for the page
 * title and the sign-in guard (app/route-meta). Home and the header are in
 * the first bundle; every other page, the 404 page included, is a
 * React.lazy chunk (the root layout shows a spinner meanwhile). The staff
 * console (`/console`) is a lazy chunk of its own outside the root layout.
 */
import { lazy, Suspense, useMemo, type ComponentType } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router-dom';
import { env } from '@/config/env';
import { paths, type RouteMeta } from '@/config/paths';
import { RootLayout } from '@/app/root-layout';
import { HomeRoute } from '@/app/routes/home';
import { PageSpinner } from '@/components/ui/spinner';

/** React.lazy for a module's named export. */
function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const NotFoundRoute = lazyNamed(() => import('@/app/routes/not-found'), 'NotFoundRoute');
const JoinCreatorRoute = lazyNamed(() => import('@/app/routes/join'), 'JoinCreatorRoute');
const JoinBrandRoute = lazyNamed(() => import('@/app/routes/join'), 'JoinBrandRoute');
const JoinTeamRoute = lazyNamed(() => import('@/app/routes/team'), 'JoinTeamRoute');
const BrandTeamRoute = lazyNamed(() => import('@/app/routes/team'), 'BrandTeamRoute');
const LoginRoute = lazyNamed(() => import('@/app/routes/login'), 'LoginRoute');
const ForgotPasswordRoute = lazyNamed(
  () => import('@/app/routes/forgot-password'),
  'ForgotPasswordRoute',
);
const AuthActionRoute = lazyNamed(() => import('@/app/routes/auth-action'), 'AuthActionRoute');
const DashboardRoute = lazyNamed(() => import('@/app/routes/dashboard'), 'DashboardRoute');
const SettingsAccountRoute = lazyNamed(
  () => import('@/app/routes/settings/account'),
  'SettingsAccountRoute',
);
const SettingsBrandRoute = lazyNamed(
  () => import('@/app/routes/settings/brand'),
  'SettingsBrandRoute',
);
const SettingsNotificationsRoute = lazyNamed(
  () => import('@/app/routes/settings/notifications'),
  'SettingsNotificationsRoute',
);
const SettingsReportsRoute = lazyNamed(
  () => import('@/app/routes/settings/reports'),
  'SettingsReportsRoute',
);
const OnboardingRoute = lazyNamed(() => import('@/app/routes/onboarding'), 'OnboardingRoute');
const OffersRoute = lazyNamed(() => import('@/app/routes/offers'), 'OffersRoute');
const OfferRoute = lazyNamed(() => import('@/app/routes/offers'), 'OfferRoute');
const ApplicationsRoute = lazyNamed(() => import('@/app/routes/offers'), 'ApplicationsRoute');
const BrandOffersRoute = lazyNamed(() => import('@/app/routes/brand-offers'), 'BrandOffersRoute');
const NewOfferRoute = lazyNamed(() => import('@/app/routes/brand-offers'), 'NewOfferRoute');
const EditOfferRoute = lazyNamed(() => import('@/app/routes/brand-offers'), 'EditOfferRoute');
const BrandOfferRoute = lazyNamed(() => import('@/app/routes/brand-offers'), 'BrandOfferRoute');
const CollaborationsRoute = lazyNamed(
  () => import('@/app/routes/collaborations'),
  'CollaborationsRoute',
);
const CollaborationRoute = lazyNamed(
  () => import('@/app/routes/collaborations'),
  'CollaborationRoute',
);
const NotificationsRoute = lazyNamed(
  () => import('@/app/routes/notifications'),
  'NotificationsRoute',
);
const PublicBrandRoute = lazyNamed(
  () => import('@/app/routes/public-profiles'),
  'PublicBrandRoute',
);
const PublicCreatorRoute = lazyNamed(
  () => import('@/app/routes/public-profiles'),
  'PublicCreatorRoute',
);

// The staff console: its own chunk with keycloak-js, loaded only at /console. Its configuration
// is handed over here: config/env imported in the chunk would be split out of the first bundle.
const ConsoleRoute = lazy(async () => ({
  default: (await import('@/app/routes/console')).ConsoleRoute,
}));
const Console = () => {
  // One object per mount (env is read once /config.json is loaded), so the console's API is made once.
  const live = useMemo(() => ({ origin: env.bffUrl, path: env.livePath }), []);
  return <ConsoleRoute config={env.console} apiBaseUrl={env.apiBaseUrl} live={live} />;
};

const page = (meta: RouteMeta, element: RouteObject['element']): RouteObject => ({
  path: meta.path,
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
      page(paths.joinTeam, <JoinTeamRoute />),
      page(paths.login, <LoginRoute />),
      page(paths.forgotPassword, <ForgotPasswordRoute />),
      page(paths.dashboard, <DashboardRoute />),
      page(paths.authAction, <AuthActionRoute />),
      page(paths.settings, <Navigate to={paths.settingsAccount.path} replace />),
      page(paths.settingsAccount, <SettingsAccountRoute />),
      page(paths.settingsBrand, <SettingsBrandRoute />),
      page(paths.settingsNotifications, <SettingsNotificationsRoute />),
      page(paths.settingsReports, <SettingsReportsRoute />),
      page(paths.onboarding, <OnboardingRoute />),
      page(paths.offers, <OffersRoute />),
      page(paths.offer, <OfferRoute />),
      page(paths.applications, <ApplicationsRoute />),
      // Static segments rank above dynamic ones: /brand/offers… wins over /brand/:username.
      page(paths.brandOffers, <BrandOffersRoute />),
      page(paths.brandOfferNew, <NewOfferRoute />),
      page(paths.brandOfferEdit, <EditOfferRoute />),
      page(paths.brandOffer, <BrandOfferRoute />),
      page(paths.brandTeam, <BrandTeamRoute />),
      page(paths.collaborations, <CollaborationsRoute />),
      page(paths.collaboration, <CollaborationRoute />),
      page(paths.notifications, <NotificationsRoute />),
      page(paths.publicBrand, <PublicBrandRoute />),
      page(paths.publicCreator, <PublicCreatorRoute />),
      page(paths.notFound, <NotFoundRoute />),
    ],
  },
  // Outside the root layout: no product header, session or live socket in the console.
  page(
    paths.console,
    <Suspense fallback={<PageSpinner />}>
      <Console />
    </Suspense>,
  ),
];

/** The page of the current location inside the root layout (call under a router). */
export function AppRoutes() {
  return useRoutes(routes);
}
