/**
 * The frame of every page and the route guard of spec §2:
 * - the page title is the matched route's title plus ' - Raly' (home: 'Raly');
 * - a signed-out visitor of a protected route is sent to '/';
 * - the user store is reset on each navigation without a network call (see
 *   below);
 * - the header, the lazily loaded page (spinner while its code loads) and
 *   the global toast.
 */
import { Suspense, useEffect } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useRouteMeta } from '@/app/route-meta';
import { ScrollRestoration } from '@/app/scroll-restoration';
import { pageTitle } from '@/lib/page-title';
import { useSession } from '@/lib/use-session';
import { Header } from '@/components/layout/header';
import { Footer } from '@/components/layout/footer';
import { Toaster } from '@/components/ui/toaster';
import { PageSpinner } from '@/components/ui/spinner';
import { focusRing } from '@/components/ui/button';

/*
 * Spec §2 "the user store is reset on each navigation" (docs/adr/0007). Our
 * user store is the RTK Query `me` cache plus per-page UI state. The cache is
 * never stale, so a navigation needs no GET /api/me: it is read once per page
 * load and then kept current by the answers of the user's commands, the live
 * pushes and one read after a socket reconnect. What a page held is reset
 * because it lives in the page: forms are filled afresh from the current
 * record when the next page mounts, and the open avatar menu and the mobile
 * slide-over close on a path change. The toast is not touched: a toast
 * raised just before a navigation (e.g. after saving) stays for its 5 s. On
 * sign-out the whole cache is emptied (lib/store.ts).
 */

export function RootLayout() {
  const route = useRouteMeta();
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const blocked = route?.access === 'protected' && !signedIn;

  useEffect(() => {
    if (!blocked) document.title = pageTitle(route);
  }, [route, blocked]);

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className={`sr-only z-50 rounded-md bg-white px-4 py-2 text-sm font-semibold text-indigo-700 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 ${focusRing}`}
      >
        Skip to content
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {blocked ? (
          <Navigate to={paths.home.path} replace />
        ) : (
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        )}
      </main>
      <Footer />
      <Toaster />
      <ScrollRestoration />
    </div>
  );
}
