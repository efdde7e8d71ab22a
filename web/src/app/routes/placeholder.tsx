/** A route of spec §2 whose screen comes with a later issue. */
import { PageHeading } from '@/components/ui/page-heading';

export function PlaceholderRoute({ title }: { title: string }) {
  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <PageHeading>{title}</PageHeading>
      <p className="mt-4 text-slate-600">Coming soon.</p>
    </section>
  );
}
