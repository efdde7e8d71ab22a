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
  login: route('/login', 'Login'),
  forgotPassword: route('/forgot-password', 'Forgot Password'),
  dashboard: route('/dashboard', 'Dashboard', 'protected'),
  authAction: route('/auth/action', 'Create a new password'),
  settings: route('/settings', 'Settings', 'protected'),
  settingsAccount: route('/settings/account', 'Account', 'protected'),
  settingsBrand: route('/settings/brand', 'Brand Profile', 'protected'),
  onboarding: route('/onboarding', 'Onboarding', 'protected'),
  notFound: route('*', 'Page not found'),
} as const;

export type RouteName = keyof typeof paths;
