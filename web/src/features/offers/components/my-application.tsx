/**
 * The creator's own application on /offers/:id: its live status,
 * pitch and proposed rate, Withdraw while it is pending
 * ('Application withdrawn.'; failure: the returned error text), and once
 * accepted the way to its collaboration.
 */
import { messages } from '@raly/contracts/messages';
import type { ApplicationRecord } from '@raly/contracts/offers';
import { formatDate, formatMoney } from '@/lib/offer-format';
import { useWithdrawApplicationMutation } from '@/features/offers/api/applications-api';
import { useCommandToast } from '@/lib/use-command-toast';
import { ApplicationStatusBadge } from '@/components/offers/application-status-badge';
import { Button } from '@/components/ui/button';
import { CollaborationLink } from '@/components/collaborations/collaboration-link';

export function MyApplication({ application }: { application: ApplicationRecord }) {
  const [withdrawApplication, { isLoading }] = useWithdrawApplicationMutation();
  const run = useCommandToast();
  const withdraw = () =>
    run(() => withdrawApplication(application.id).unwrap(), messages.applicationWithdrawn);

  return (
    <section
      aria-label="Your application"
      className="space-y-4 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex items-center justify-between gap-4">
        <h2 className="text-lg font-semibold text-slate-900">Your application</h2>
        <ApplicationStatusBadge status={application.status} />
      </div>
      <p className="text-sm text-slate-500">Sent {formatDate(application.created)}</p>
      <p className="text-sm whitespace-pre-line text-slate-700">{application.pitch}</p>
      {application.proposedRate && (
        <p className="text-sm text-slate-700">
          Proposed rate: {formatMoney(application.proposedRate)}
        </p>
      )}
      {application.status === 'accepted' && (
        <div className="flex justify-end">
          <CollaborationLink applicationId={application.id} />
        </div>
      )}
      {application.status === 'pending' && (
        <div className="flex justify-end">
          <Button variant="secondary" busy={isLoading} onClick={() => void withdraw()}>
            Withdraw
          </Button>
        </div>
      )}
    </section>
  );
}
