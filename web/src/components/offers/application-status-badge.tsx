/** An application's status as a coloured pill, the same on the creator's and the brand's screens. */
import type { ApplicationStatus } from '@raly/contracts/offers';
import { applicationStatusLabels } from '@/lib/offer-format';
import { Badge, type BadgeTone } from '@/components/ui/badge';

const tones: Record<ApplicationStatus, BadgeTone> = {
  pending: 'amber',
  accepted: 'green',
  declined: 'red',
  withdrawn: 'neutral',
};

export function ApplicationStatusBadge({ status }: { status: ApplicationStatus }) {
  return (
    <span data-testid="application-status" data-status={status}>
      <Badge tone={tones[status]}>{applicationStatusLabels[status]}</Badge>
    </span>
  );
}
