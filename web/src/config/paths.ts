/**
 * The route table of spec §2: every path the app answers, its page title and
 * whether it needs a signed-in user. The router and links read paths from
 * here, so a path is spelled once.
 */
export type RouteAccess = 'public' | 'protected';

export interface RouteMeta {
  path: string;
  /** Route title; the page title is this plus ' - Raly' (home: the product name only). */
  title: string;
  access: RouteAccess;
}

const route = (path: string, title: string, access: RouteAccess = 'public'): RouteMeta => ({
  path,
  title,
  access,
});

export const paths = {
  home: route('/', 'Raly'),
  join: route('/join', 'Join'),
  joinCreator: route('/join/creator', 'Join as a creator'),
  joinBrand: route('/join/brand', 'Join as a brand'),
  // A brand's invitation link (anyone: visitors register, signed-in users without a brand join).
  joinTeam: route('/join/team', 'Join a brand team'),
  login: route('/login', 'Login'),
  forgotPassword: route('/forgot-password', 'Forgot Password'),
  dashboard: route('/dashboard', 'Dashboard', 'protected'),
  authAction: route('/auth/action', 'Create a new password'),
  settings: route('/settings', 'Settings', 'protected'),
  settingsAccount: route('/settings/account', 'Account', 'protected'),
  settingsBrand: route('/settings/brand', 'Brand Profile', 'protected'),
  settingsNotifications: route('/settings/notifications', 'Notifications', 'protected'),
  settingsReports: route('/settings/reports', 'Reports', 'protected'),
  onboarding: route('/onboarding', 'Onboarding', 'protected'),
  // Offers. Creators: the feed, an offer, their applications.
  offers: route('/offers', 'Offers', 'protected'),
  offer: route('/offers/:id', 'Offer', 'protected'),
  applications: route('/applications', 'My applications', 'protected'),
  // Brands: their own offers live under /brand/offers exactly. React Router ranks a static
  // segment above a dynamic one, so /brand/offers(/…) wins over the public /brand/:username;
  // a brand whose username is 'offers' (a valid username) has its public page shadowed there.
  brandOffers: route('/brand/offers', 'Brand offers', 'protected'),
  brandOfferNew: route('/brand/offers/new', 'New offer', 'protected'),
  brandOfferEdit: route('/brand/offers/:id/edit', 'Edit offer', 'protected'),
  brandOffer: route('/brand/offers/:id', 'Brand offer', 'protected'),
  // The brand's team (members, invitations), also static: it wins over /brand/:username.
  brandTeam: route('/brand/team', 'Team', 'protected'),
  // Both parties of an accepted application: their collaborations and one conversation.
  collaborations: route('/collaborations', 'Collaborations', 'protected'),
  collaboration: route('/collaborations/:id', 'Collaboration', 'protected'),
  // Everyone signed in: what happened to their offers, applications and collaborations.
  notifications: route('/notifications', 'Notifications', 'protected'),
  // Public profiles (anyone): the public URL prefixes of config/public-urls.
  publicBrand: route('/brand/:username', 'Brand'),
  publicCreator: route('/user/:username', 'Creator'),
  // The staff console (docs/console.md): its own sign-in (Keycloak, keycloak-js) and frame, outside
  // the product's layout and session; '/console' and anything under it.
  console: route('/console/*', 'Console'),
  notFound: route('*', 'Page not found'),
} as const;

export type RouteName = keyof typeof paths;

/** @returns the path of a route with parameters, e.g. pathOf(paths.offer, { id }) → '/offers/<id>' */
export function pathOf(meta: RouteMeta, parameters: Record<string, string>): string {
  return meta.path.replace(/:(\w+)/g, (_match, name: string) =>
    encodeURIComponent(parameters[name] ?? ''),
  );
}
