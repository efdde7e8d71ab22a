/** / — the marketing page (spec §1: placeholder copy) with Get Started. */
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { focusRing } from '@/components/ui/button';

export function HomeRoute() {
  return (
    <section className="mx-auto max-w-4xl px-4 py-24 text-center">
      <h1 className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
        Creators earn. Brands grow.
      </h1>
      <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600">
        Raly connects creators with the brands whose campaigns fit them. Your name and e-mail stay private.
      </p>
      <Link
        to={paths.join.path}
        className={`mt-10 inline-block rounded-md bg-indigo-600 px-6 py-3 text-base font-semibold text-white shadow-sm hover:bg-indigo-500 ${focusRing}`}
      >
        Get Started
      </Link>
    </section>
  );
}
