/**
 * The frame of every page and the route guard of spec §2:
 * - the page title is the matched route's title plus ' - Raly' (home: 'Raly');
 * - a signed-out visitor of a protected route is sent to '/';
 * - the user store is reset on each navigation (see useUserStoreReset);
 * - the header, the lazily loaded page (spinner while its code loads) and
 *   the global toast.
 */
import { Suspense, useEffect, useRef } from 'react';
import { useDispatch } from 'react-redux';
import { Navigate, Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router-dom';
import type { RouteMeta } from '@/config/paths';
import { paths } from '@/config/paths';
import { api } from '@/lib/api-client';
import { pageTitle } from '@/lib/page-title';
import { useSession } from '@/lib/use-session';
import { Header } from '@/components/layout/header';
import { Footer } from '@/components/layout/footer';
import { Toaster } from '@/components/ui/toaster';
import { PageSpinner } from '@/components/ui/spinner';
import { focusRing } from '@/components/ui/button';

/** The deepest matched route's metadata (routes carry it as `handle`). */
function useRouteMeta(): RouteMeta | undefined {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]!.handle as RouteMeta | undefined;
    if (handle?.title) return handle;
  }
  return undefined;
}

/**
 * Spec §2 "the user store is reset on each navigation". Our user store is
 * the RTK Query `me` cache (kept live by socket pushes) plus per-page UI
 * state. On every change of path, while signed in, the `Me` cache entry is
 * invalidated, so whatever screen shows the user reads the record again
 * from the BFF (it keeps showing the cached record until the answer comes,
 * so nothing flashes); per-page state (open menus, the mobile slide-over,
 * form state) is dropped because those components close on a path change
 * or unmount with their page. The toast is not touched: a toast raised just
 * before a navigation (e.g. after saving) stays for its 5 s. On sign-out
 * the whole cache is emptied (app/store.ts).
 */
function useUserStoreReset(signedIn: boolean): void {
  const { pathname } = useLocation();
  const dispatch = useDispatch();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    if (signedIn) dispatch(api.util.invalidateTags(['Me']));
  }, [pathname, signedIn, dispatch]);
}

export function RootLayout() {
  const route = useRouteMeta();
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const blocked = route?.access === 'protected' && !signedIn;
  useUserStoreReset(signedIn);

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
