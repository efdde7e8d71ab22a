/**
 * The site header of spec §2. Signed out: Home, Earn As Creator, Grow As
 * Brand and a Login button. Signed in: Home and Dashboard (and, for
 * creators, Offers with its live badge), Collaborations and the
 * notifications bell with their live badges, plus the avatar menu
 * (Settings, Logout). Below the md breakpoint the links move into the
 * mobile slide-over behind a hamburger button.
 */
import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/use-session';
import { buttonClass, focusRing } from '@/components/ui/button';
import { MobileMenu } from '@/components/layout/mobile-menu';
import { signedInNav, signedOutNav } from '@/components/layout/nav-items';

// The avatar menu needs the live `me` query (and its socket): loaded only once signed in.
const AvatarMenu = lazy(() =>
  import('@/components/layout/account-menu').then((module) => ({ default: module.AvatarMenu })),
);
// So do the creators' "Offers" link and the listener counting its badge.
const OffersNavLink = lazy(() =>
  import('@/components/layout/offers-nav').then((module) => ({ default: module.OffersNavLink })),
);
// And the "Collaborations" link with its unread badge.
const CollaborationsNavLink = lazy(() =>
  import('@/components/layout/collaborations-nav').then((module) => ({
    default: module.CollaborationsNavLink,
  })),
);
// And the bell with the count of unread notifications.
const NotificationsBell = lazy(() =>
  import('@/components/layout/notifications-bell').then((module) => ({
    default: module.NotificationsBell,
  })),
);
const OfferArrivalsListener = lazy(() =>
  import('@/components/layout/offers-nav').then((module) => ({
    default: module.OfferArrivalsListener,
  })),
);

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium transition-colors ${focusRing} ${
    isActive ? 'text-indigo-700' : 'text-slate-700 hover:text-slate-900'
  }`;

export function Header() {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const items = signedIn ? signedInNav : signedOutNav;
  const [menuOpen, setMenuOpen] = useState(false);
  // Closing the native dialog returns focus to the hamburger button by itself.
  const closeMenu = useCallback(() => setMenuOpen(false), []);

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link
          to={paths.home.path}
          className={`rounded-md text-xl font-extrabold tracking-tight text-indigo-700 ${focusRing}`}
        >
          Raly
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {items.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end} className={navLinkClass}>
              {item.label}
            </NavLink>
          ))}
          {signedIn && (
            <Suspense fallback={null}>
              <OffersNavLink className={navLinkClass} />
              <CollaborationsNavLink className={navLinkClass} />
              <NotificationsBell className={navLinkClass} />
            </Suspense>
          )}
          <div className="ml-3 flex items-center">
            {signedIn ? (
              <Suspense fallback={<span className="block size-9 rounded-full bg-slate-100" />}>
                <AvatarMenu />
              </Suspense>
            ) : (
              <Link to={paths.login.path} className={buttonClass('primary')}>
                Login
              </Link>
            )}
          </div>
        </nav>
        <button
          type="button"
          aria-label="Open main menu"
          aria-haspopup="dialog"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(true)}
          className={`-m-2 rounded-md p-2 text-slate-700 hover:bg-slate-100 md:hidden ${focusRing}`}
        >
          <svg
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            aria-hidden="true"
            className="size-6"
          >
            <path
              strokeLinecap="round"
              strokeLinejoin="round"
              d="M3.75 6.75h16.5M3.75 12h16.5m-16.5 5.25h16.5"
            />
          </svg>
        </button>
      </div>
      {signedIn && (
        <Suspense fallback={null}>
          <OfferArrivalsListener />
        </Suspense>
      )}
      <MobileMenu open={menuOpen} onClose={closeMenu} items={items} signedIn={signedIn} />
    </header>
  );
}
