/**
 * The site header of spec §2. Signed out: Home, Earn As Creator, Grow As
 * Brand and a Login button. Signed in: Home and Dashboard plus the avatar
 * menu (Settings, Logout).
 */
import { Link, NavLink } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/use-session';
import { focusRing } from '@/components/ui/button';
import { AvatarMenu } from '@/components/layout/avatar-menu';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${focusRing} ${isActive ? 'text-indigo-700' : 'text-slate-700 hover:text-slate-900'}`;

export function Header() {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <Link to={paths.home.path} className={`text-xl font-extrabold tracking-tight text-indigo-700 ${focusRing}`}>
          Raly
        </Link>
        <div className="flex items-center gap-1">
          <NavLink to={paths.home.path} end className={navLinkClass}>
            Home
          </NavLink>
          {signedIn ? (
            <>
              <NavLink to={paths.dashboard.path} className={navLinkClass}>
                Dashboard
              </NavLink>
              <AvatarMenu />
            </>
          ) : (
            <>
              <NavLink to={paths.joinCreator.path} className={navLinkClass}>
                Earn As Creator
              </NavLink>
              <NavLink to={paths.joinBrand.path} className={navLinkClass}>
                Grow As Brand
              </NavLink>
              <Link
                to={paths.login.path}
                className={`ml-2 rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 ${focusRing}`}
              >
                Login
              </Link>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}
