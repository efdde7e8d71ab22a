/** The signed-in user's avatar with a menu: Settings (account) and Logout (then home). */
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { INITIALS_MAX_LETTERS } from '@raly/contracts/constants';
import { paths } from '@/config/paths';
import { useGetMeQuery } from '@/lib/me-api';
import { signOut } from '@/lib/session';
import { focusRing } from '@/components/ui/button';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase())
    .join('')
    .slice(0, INITIALS_MAX_LETTERS);
}

export function AvatarMenu() {
  const { data: me } = useGetMeQuery();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !container.current?.contains(event.target as Node)) {
        setOpen(false);
      }
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const user = me?.user;
  const displayName = user ? user.username || `${user.firstName} ${user.lastName}` : '';
  const logout = async () => {
    setOpen(false);
    await signOut();
    navigate(paths.home.path);
  };

  return (
    <div ref={container} className="relative ml-2">
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label="Open user menu"
        onClick={() => setOpen((value) => !value)}
        className={`flex size-9 items-center justify-center overflow-hidden rounded-full bg-indigo-100 text-sm font-semibold text-indigo-700 ${focusRing}`}
      >
        {user?.profileImg ? <img src={user.profileImg} alt="" className="size-full object-cover" /> : initials(displayName) || '•'}
      </button>
      {open && (
        <div id={menuId} role="menu" className="absolute right-0 z-40 mt-2 w-56 rounded-md bg-white py-1 shadow-lg ring-1 ring-slate-200">
          {user && (
            <div className="border-b border-slate-100 px-4 py-2 text-sm">
              <p className="truncate font-medium text-slate-900">{displayName}</p>
              <p className="truncate text-slate-500">{user.email}</p>
            </div>
          )}
          <Link role="menuitem" to={paths.settingsAccount.path} onClick={() => setOpen(false)} className={`block px-4 py-2 text-sm text-slate-700 hover:bg-slate-50 ${focusRing}`}>
            Settings
          </Link>
          <button role="menuitem" type="button" onClick={logout} className={`block w-full px-4 py-2 text-left text-sm text-slate-700 hover:bg-slate-50 ${focusRing}`}>
            Logout
          </button>
        </div>
      )}
    </div>
  );
}
