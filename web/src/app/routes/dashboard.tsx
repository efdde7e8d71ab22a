/** /dashboard — requires login; a placeholder (spec §1). The onboarding check comes with the onboarding issue. */
import { useGetMeQuery } from '@/lib/me-api';
import { PageHeading } from '@/components/ui/page-heading';

export function DashboardRoute() {
  const { data: me } = useGetMeQuery();
  const name = me?.user.username || me?.user.firstName;
  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <PageHeading>Dashboard</PageHeading>
      <p className="mt-4 text-slate-600">{name ? `Welcome, ${name}.` : 'Welcome.'} Campaigns will show up here.</p>
    </section>
  );
}
