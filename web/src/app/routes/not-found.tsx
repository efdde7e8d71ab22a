/**
 * Any unknown path (spec §2): 'Page not found', 'Sorry, we couldn’t find the
 * page you’re looking for.' (messages.pageNotFound), with Back To Home and
 * Contact support, both going home.
 */
import { Link } from 'react-router-dom';
import { messages } from '@raly/contracts/messages';
import { paths } from '@/config/paths';
import { buttonClass, focusRing } from '@/components/ui/button';

export function NotFoundRoute() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center sm:py-32">
      <p className="text-base font-semibold text-indigo-700">404</p>
      <h1 className="mt-4 text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl">
        {paths.notFound.title}
      </h1>
      <p className="mt-6 text-base text-pretty text-slate-600 sm:text-lg">
        {messages.pageNotFound}
      </p>
      <div className="mt-10 flex flex-col items-center justify-center gap-4 sm:flex-row sm:gap-6">
        <Link to={paths.home.path} className={buttonClass('primary')}>
          Back To Home
        </Link>
        <Link
          to={paths.home.path}
          className={`rounded-md px-2 py-1 text-sm font-semibold text-slate-900 hover:text-indigo-700 ${focusRing}`}
        >
          Contact support <span aria-hidden="true">&rarr;</span>
        </Link>
      </div>
    </section>
  );
}
