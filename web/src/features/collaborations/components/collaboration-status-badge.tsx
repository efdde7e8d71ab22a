/** A collaboration's status as a coloured pill, the same in the list and on its page. */
import type { CollaborationStatus } from '@raly/contracts/collaborations';
import { Badge, type BadgeTone } from '@/components/ui/badge';

const looks: Record<CollaborationStatus, { label: string; tone: BadgeTone }> = {
  active: { label: 'Active', tone: 'green' },
  completed: { label: 'Completed', tone: 'indigo' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
};

export function CollaborationStatusBadge({ status }: { status: CollaborationStatus }) {
  const { label, tone } = looks[status];
  return (
    <span data-testid="collaboration-status" data-status={status}>
      <Badge tone={tone}>{label}</Badge>
    </span>
  );
}
