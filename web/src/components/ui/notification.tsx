/** An in-page banner for a form's outcome (e.g. 'Incorrect login'). */
import type { ReactNode } from 'react';

export function Notification({
  kind = 'alert',
  children,
}: {
  kind?: 'alert' | 'success';
  children: ReactNode;
}) {
  const styles =
    kind === 'alert'
      ? 'bg-red-50 text-red-800 ring-red-200'
      : 'bg-emerald-50 text-emerald-800 ring-emerald-200';
  return (
    <div
      role={kind === 'alert' ? 'alert' : 'status'}
      className={`rounded-md px-4 py-3 text-sm ring-1 ring-inset ${styles}`}
    >
      {children}
    </div>
  );
}
