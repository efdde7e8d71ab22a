/**
 * The frame of every page and the route guard of spec §2: sets the page
 * title from the matched route, sends a signed-out visitor of a protected
 * route home, and shows the header and the global toast.
 */
import { useEffect } from 'react';
import { Navigate, Outlet, useMatches } from 'react-router-dom';
import type { RouteMeta } from '@/config/paths';
import { paths } from '@/config/paths';
import { pageTitle } from '@/lib/page-title';
import { useSession } from '@/lib/use-session';
import { Header } from '@/components/layout/header';
import { Toaster } from '@/components/ui/toaster';

/** The deepest matched route's metadata (routes carry it as `handle`). */
function useRouteMeta(): RouteMeta | undefined {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]!.handle as RouteMeta | undefined;
    if (handle?.title) return handle;
  }
  return undefined;
}

export function RootLayout() {
  const route = useRouteMeta();
  const session = useSession();
  const blocked = route?.access === 'protected' && session.status !== 'signed-in';

  useEffect(() => {
    if (!blocked) document.title = pageTitle(route);
  }, [route, blocked]);

  return (
    <div className="flex min-h-dvh flex-col">
      <Header />
      <main className="flex-1">{blocked ? <Navigate to={paths.home.path} replace /> : <Outlet />}</main>
      <Toaster />
    </div>
  );
}
