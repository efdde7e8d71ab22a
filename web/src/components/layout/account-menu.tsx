/**
 * The signed-in parts of the header (spec §2), loaded only once a user is
 * signed in (they bring the live `me` query and its socket): the avatar menu
 * of the desktop header and the account block of the mobile slide-over.
 * The avatar is the live profileImg of GET /api/me, or the initials circle
 * until one exists.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useGetMeQuery } from '@/lib/me-api';
import { Avatar } from '@/components/ui/avatar';
import { focusRing } from '@/components/ui/button';
import { displayNameOf } from '@/components/layout/current-user';
import { useLogout } from '@/components/layout/use-logout';

/** The user as the header shows them; empty strings while GET /api/me loads. */
function useHeaderUser() {
  const { data: me } = useGetMeQuery();
  const user = me?.user;
  return {
    loaded: Boolean(user),
    name: user ? displayNameOf(user) : '',
    email: user?.email ?? '',
    profileImg: user?.profileImg ?? '',
  };
}

const menuItemClass = `block w-full px-4 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus:bg-slate-100 focus:outline-none ${focusRing}`;

/**
 * Desktop avatar menu (WAI-ARIA menu button): Enter/Space/ArrowDown open it
 * on the first item, ArrowUp on the last; arrows, Home and End move; Escape
 * closes and returns focus to the button; Tab or a click outside closes.
 */
export function AvatarMenu() {
  const user = useHeaderUser();
  const logout = useLogout();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonId = useId();
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<Array<HTMLElement | null>>([]);
  const [focusOnOpen, setFocusOnOpen] = useState<'first' | 'last'>('first');
  const { pathname } = useLocation();

  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    const list = items.current.filter(Boolean);
    (focusOnOpen === 'first' ? list[0] : list[list.length - 1])?.focus();
    const closeOnOutside = (event: MouseEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', closeOnOutside);
    return () => document.removeEventListener('mousedown', closeOnOutside);
  }, [open, focusOnOpen]);

  const openAt = (where: 'first' | 'last') => {
    setFocusOnOpen(where);
    setOpen(true);
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const list = items.current.filter((item): item is HTMLElement => Boolean(item));
    const index = list.indexOf(document.activeElement as HTMLElement);
    const moveTo = (next: number) => list[(next + list.length) % list.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        moveTo(index + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        moveTo(index - 1);
        break;
      case 'Home':
        event.preventDefault();
        moveTo(0);
        break;
      case 'End':
        event.preventDefault();
        moveTo(list.length - 1);
        break;
      case 'Escape':
        event.preventDefault();
        setOpen(false);
        button.current?.focus();
        break;
      case 'Tab':
        setOpen(false);
        break;
    }
  };

  return (
    <div ref={container} className="relative">
      <button
        ref={button}
        id={buttonId}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label="Open user menu"
        onClick={() => (open ? setOpen(false) : openAt('first'))}
        onKeyDown={onButtonKeyDown}
        className={`flex rounded-full ring-2 ring-transparent hover:ring-indigo-200 ${focusRing}`}
      >
        <Avatar src={user.profileImg} name={user.name} />
      </button>
      {open && (
        <div className="absolute right-0 z-40 mt-2 w-64 origin-top-right overflow-hidden rounded-lg bg-white shadow-lg ring-1 ring-slate-900/10">
          {user.loaded && (
            <div className="border-b border-slate-100 px-4 py-3 text-sm">
              <p className="truncate font-medium text-slate-900">{user.name}</p>
              <p className="truncate text-slate-600">{user.email}</p>
            </div>
          )}
          <ul
            id={menuId}
            role="menu"
            aria-labelledby={buttonId}
            onKeyDown={onMenuKeyDown}
            className="py-1"
          >
            <li role="none">
              <Link
                ref={(element) => {
                  items.current[0] = element;
                }}
                role="menuitem"
                tabIndex={-1}
                to={paths.settingsAccount.path}
                onClick={() => setOpen(false)}
                className={menuItemClass}
              >
                Settings
              </Link>
            </li>
            <li role="none">
              <button
                ref={(element) => {
                  items.current[1] = element;
                }}
                role="menuitem"
                tabIndex={-1}
                type="button"
                onClick={() => {
                  setOpen(false);
                  void logout();
                }}
                className={menuItemClass}
              >
                Logout
              </button>
            </li>
          </ul>
        </div>
      )}
    </div>
  );
}

/** The account block of the mobile slide-over: avatar, name (username, or a brand user's name), e-mail, Settings, Logout. */
export function MobileAccountPanel({ onNavigate }: { onNavigate: () => void }) {
  const user = useHeaderUser();
  const logout = useLogout();
  const linkClass = `block rounded-md px-3 py-2 text-base font-medium text-slate-700 hover:bg-slate-100 ${focusRing}`;
  return (
    <div className="border-t border-slate-200 pt-4">
      <div className="flex items-center gap-3 px-3" data-testid="mobile-account">
        <Avatar src={user.profileImg} name={user.name} className="size-10 text-base" />
        <div className="min-w-0">
          <p className="truncate text-base font-medium text-slate-900">{user.name}</p>
          <p className="truncate text-sm text-slate-600">{user.email}</p>
        </div>
      </div>
      <div className="mt-3 space-y-1">
        <Link to={paths.settingsAccount.path} onClick={onNavigate} className={linkClass}>
          Settings
        </Link>
        <button
          type="button"
          onClick={() => {
            onNavigate();
            void logout();
          }}
          className={`${linkClass} w-full text-left`}
        >
          Logout
        </button>
      </div>
    </div>
  );
}
