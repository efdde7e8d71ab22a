/**
 * The header's links of spec §2, one list per session state, shared by the
 * desktop header and the mobile slide-over so the two always match.
 */
import { paths } from '@/config/paths';

export interface NavItem {
  label: string;
  to: string;
  /** Active only on exactly this path (home), not on its sub-paths. */
  end?: boolean;
}

/** The props of a header link loaded once signed in (Offers, Collaborations): the same look in both menus. */
export interface SignedInNavLinkProps {
  className: (state: { isActive: boolean }) => string;
  /** E.g. closing the mobile menu. */
  onClick?: () => void;
}

/** Signed out: Home, Earn As Creator, Grow As Brand (the Login button follows). */
export const signedOutNav: readonly NavItem[] = [
  { label: 'Home', to: paths.home.path, end: true },
  { label: 'Earn As Creator', to: paths.joinCreator.path },
  { label: 'Grow As Brand', to: paths.joinBrand.path },
];

/** Signed in: Home and Dashboard (the avatar menu follows). */
export const signedInNav: readonly NavItem[] = [
  { label: 'Home', to: paths.home.path, end: true },
  { label: 'Dashboard', to: paths.dashboard.path },
];
