/**
 * Renders a page that needs the signed-in user's record: a spinner while
 * GET /api/me loads (for a brand user, until their brand record is there
 * too, spec §4), the spec's generic problem text if it fails, then the page
 * with the record.
 */
import type { ReactNode } from 'react';
import { messages } from '@raly/contracts/messages';
import { useProfile } from '@/lib/me-api';
import type { Me } from '@raly/contracts/bff-api';
import { Notification } from '@/components/ui/notification';
import { PageSpinner } from '@/components/ui/spinner';

export function WithMe({ children }: { children: (me: Me) => ReactNode }) {
  const { me, isError } = useProfile();
  if (me) return children(me);
  if (!isError) return <PageSpinner />;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <Notification>{messages.genericProblem}</Notification>
    </div>
  );
}
