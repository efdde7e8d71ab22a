/** The site footer: the product name and the privacy promise of spec §1. */
export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-6 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>
          <span className="font-semibold text-slate-900">Raly</span> · Creators earn. Brands grow.
        </p>
        <p>Your name and e-mail are never disclosed to brands or other members.</p>
      </div>
    </footer>
  );
}
