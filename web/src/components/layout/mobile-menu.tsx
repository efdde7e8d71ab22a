/**
 * The mobile slide-over menu of spec §2 (below the md breakpoint): the same
 * links as the header and, signed in, the user's avatar, username (a brand
 * user's name) and e-mail with Settings and Logout. A native modal <dialog>:
 * the page behind is inert, Escape closes it, focus stays inside (Tab wraps)
 * and returns to the hamburger button when it closes.
 */
import { lazy, Suspense, useEffect, useRef, type KeyboardEvent } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { buttonClass, focusRing } from '@/components/ui/button';
import type { NavItem } from '@/components/layout/nav-items';

const OffersNavLink = lazy(() =>
  import('@/components/layout/offers-nav').then((module) => ({ default: module.OffersNavLink })),
);

const CollaborationsNavLink = lazy(() =>
  import('@/components/layout/collaborations-nav').then((module) => ({
    default: module.CollaborationsNavLink,
  })),
);

const NotificationsBell = lazy(() =>
  import('@/components/layout/notifications-bell').then((module) => ({
    default: module.NotificationsBell,
  })),
);
const MobileAccountPanel = lazy(() =>
  import('@/components/layout/account-menu').then((module) => ({
    default: module.MobileAccountPanel,
  })),
);

export interface MobileMenuProps {
  open: boolean;
  onClose: () => void;
  items: readonly NavItem[];
  signedIn: boolean;
}

const focusableSelector =
  'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-2 text-base font-medium ${focusRing} ${
    isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700 hover:bg-slate-100'
  }`;

export function MobileMenu({ open, onClose, items, signedIn }: MobileMenuProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { pathname } = useLocation();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  // Following a link closes the menu.
  const lastPath = useRef(pathname);
  useEffect(() => {
    if (lastPath.current !== pathname) onClose();
    lastPath.current = pathname;
  }, [pathname, onClose]);

  /** Keeps Tab and Shift+Tab inside the panel. */
  const trapFocus = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>(focusableSelector)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={dialog}
      aria-label="Main menu"
      className="slide-over fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-none w-full max-w-xs bg-white p-0 shadow-xl"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClose={onClose}
      onKeyDown={trapFocus}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === dialog.current) onClose();
      }}
    >
      {open && (
        <div className="flex h-full flex-col overflow-y-auto px-4 py-4">
          <div className="flex items-center justify-between">
            <Link
              to={paths.home.path}
              onClick={onClose}
              className={`rounded-md text-xl font-extrabold tracking-tight text-indigo-700 ${focusRing}`}
            >
              Raly
            </Link>
            <button
              type="button"
              aria-label="Close menu"
              onClick={onClose}
              className={`-m-2 rounded-md p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 ${focusRing}`}
            >
              <svg
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.5"
                aria-hidden="true"
                className="size-6"
              >
                <path strokeLinecap="round" strokeLinejoin="round" d="M6 18 18 6M6 6l12 12" />
              </svg>
            </button>
          </div>
          <nav aria-label="Mobile" className="mt-6 space-y-1">
            {items.map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                end={item.end}
                onClick={onClose}
                className={linkClass}
              >
                {item.label}
              </NavLink>
            ))}
            {signedIn && (
              <Suspense fallback={null}>
                <OffersNavLink className={linkClass} onClick={onClose} />
                <CollaborationsNavLink className={linkClass} onClick={onClose} />
                <NotificationsBell className={linkClass} onClick={onClose} showLabel />
              </Suspense>
            )}
          </nav>
          <div className="mt-6">
            {signedIn ? (
              <Suspense fallback={null}>
                <MobileAccountPanel onNavigate={onClose} />
              </Suspense>
            ) : (
              <div className="border-t border-slate-200 pt-6">
                <Link
                  to={paths.login.path}
                  onClick={onClose}
                  className={`${buttonClass('primary')} w-full`}
                >
                  Login
                </Link>
              </div>
            )}
          </div>
        </div>
      )}
    </dialog>
  );
}
