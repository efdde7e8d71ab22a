/**
 * The dashboard's live collaborations summary (docs/product-spec.md
 * "Dashboards"): the side's active collaborations, what waits for it
 * (submissions to review for a brand, changes to make for a creator), the
 * payments due and overdue, the completed ones and the unread messages,
 * each leading to /collaborations. Counted by the BFF and read again on
 * every collaboration or message push (lib/collaborations-api).
 */
import { Link } from 'react-router-dom';
import type { CollaborationsSummary as Summary } from '@raly/contracts/collaboration-summary';
import { paths } from '@/config/paths';
import { useGetCollaborationsSummaryQuery } from '@/lib/collaborations-api';
import { buttonClass, focusRing } from '@/components/ui/button';

interface Figure {
  key: keyof Summary;
  label: string;
}

/** The figures a side sees, in order; only the "waiting" label differs. */
const figuresOf = (brandUser: boolean): Figure[] => [
  { key: 'active', label: 'Active' },
  {
    key: 'waitingForYou',
    label: brandUser ? 'Submissions to review' : 'Changes requested',
  },
  { key: 'paymentDue', label: brandUser ? 'Payments to make' : 'Payments due' },
  { key: 'paymentOverdue', label: 'Payments overdue' },
  { key: 'completed', label: 'Completed' },
  { key: 'unreadMessages', label: 'Unread messages' },
];

export function CollaborationsSummary({ brandUser }: { brandUser: boolean }) {
  const { data: summary } = useGetCollaborationsSummaryQuery();
  return (
    <section aria-labelledby="collaborations-summary-heading" className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="collaborations-summary-heading" className="text-lg font-semibold text-slate-900">
          Your collaborations
        </h2>
        <Link to={paths.collaborations.path} className={buttonClass('secondary')}>
          View collaborations
        </Link>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
        {figuresOf(brandUser).map(({ key, label }) => (
          <div key={key} className="rounded-lg bg-white px-5 py-4 shadow-sm ring-1 ring-slate-200">
            <dt className="text-sm text-slate-600">
              <Link
                to={paths.collaborations.path}
                className={`rounded hover:text-indigo-600 ${focusRing}`}
              >
                {label}
              </Link>
            </dt>
            <dd
              data-testid={`collaborations-${key}`}
              className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums"
            >
              {summary?.[key] ?? '–'}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
