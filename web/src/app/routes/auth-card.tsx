/** The centred card the sign-in and registration pages sit in. */
import type { ReactNode } from 'react';
import { PageHeading } from '@/components/ui/page-heading';

export function AuthCard({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-lg px-4 py-8 sm:py-12">
      <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <PageHeading>{title}</PageHeading>
        {intro && <p className="mt-2 text-sm text-slate-600">{intro}</p>}
        <div className="mt-8">{children}</div>
      </div>
    </div>
  );
}
