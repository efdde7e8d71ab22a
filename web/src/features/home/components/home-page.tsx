/**
 * The home page (spec §1, §2): placeholder marketing copy with a Get Started
 * button that opens the creator registration, and one call to action per
 * kind of account.
 */
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { buttonClass, focusRing } from '@/components/ui/button';

const highlights = [
  {
    title: 'Campaigns that fit',
    text: 'Creators see offers from brands that match their interests, and brands reach the audiences they want.',
  },
  {
    title: 'Privacy first',
    text: 'Your personal info (name and e-mail) is never disclosed to brands or other members.',
  },
  {
    title: 'Live everywhere',
    text: 'Changes to your profile show up at once in every tab and on every device you are signed in on.',
  },
];

export function HomePage() {
  return (
    <>
      <section className="relative overflow-hidden bg-gradient-to-b from-indigo-50 to-slate-50">
        <div className="mx-auto max-w-4xl px-4 py-20 text-center sm:px-6 sm:py-28">
          <p className="text-sm font-semibold uppercase tracking-wider text-indigo-700">
            Influencer marketing, simplified
          </p>
          <h1 className="mt-4 text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-6xl">
            Creators earn. <span className="text-indigo-700">Brands grow.</span>
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-slate-600">
            Raly connects creators with the brands whose campaigns fit them. Join in a minute, pick
            your interests, and start working with brands you like.
          </p>
          <div className="mt-10 flex flex-col items-center justify-center gap-4 sm:flex-row">
            <Link to={paths.joinCreator.path} className={buttonClass('primary', 'lg')}>
              Get Started
            </Link>
            <Link
              to={paths.joinBrand.path}
              className={`rounded-md px-2 py-1 text-base font-semibold text-slate-900 hover:text-indigo-700 ${focusRing}`}
            >
              I&apos;m a brand <span aria-hidden="true">&rarr;</span>
            </Link>
          </div>
        </div>
      </section>
      <section aria-labelledby="why-raly" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2
          id="why-raly"
          className="text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl"
        >
          Why Raly
        </h2>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {highlights.map((highlight) => (
            <li
              key={highlight.title}
              className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
            >
              <h3 className="text-base font-semibold text-slate-900">{highlight.title}</h3>
              <p className="mt-2 text-sm text-slate-600">{highlight.text}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
