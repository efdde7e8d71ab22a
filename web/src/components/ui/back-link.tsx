/** The "← …" link at the top of a detail page, back to its list. */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { focusRing } from '@/components/ui/button';

export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className={`rounded text-sm text-indigo-700 hover:underline ${focusRing}`}>
      ← {children}
    </Link>
  );
}
