/** Any unknown path (spec §2): 'Page not found' with Back To Home and Contact support, both going home. */
import { Link } from 'react-router-dom';
import { messages } from '@raly/contracts/messages';
import { paths } from '@/config/paths';
import { focusRing } from '@/components/ui/button';

export function NotFoundRoute() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <p className="text-base font-semibold text-indigo-600">404</p>
      <h1 className="mt-4 text-4xl font-bold tracking-tight text-slate-900">{paths.notFound.title}</h1>
      <p className="mt-6 text-base text-slate-600">{messages.pageNotFound}</p>
      <div className="mt-10 flex items-center justify-center gap-6">
        <Link to={paths.home.path} className={`rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 ${focusRing}`}>
          Back To Home
        </Link>
        <Link to={paths.home.path} className={`text-sm font-semibold text-slate-900 ${focusRing}`}>
          Contact support <span aria-hidden="true">&rarr;</span>
        </Link>
      </div>
    </section>
  );
}
