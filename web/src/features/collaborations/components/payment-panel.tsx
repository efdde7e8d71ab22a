/**
 * What Raly records of the payment (it never moves money, and says so):
 * the amount, its status and dates, an overdue warning to both sides, the
 * brand's "Mark as paid" with an optional reference once it is due, and the
 * creator's "Confirm receipt" once it is marked.
 */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  markPaidSchema,
  PAYMENT_REFERENCE_MAX_LENGTH,
  type MarkPaid,
} from '@raly/contracts/collaboration-work';
import type { CollaborationParty, CollaborationRecord } from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import { formatDate, formatMoney } from '@/lib/offer-format';
import { useCommandToast } from '@/lib/use-command-toast';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Fact } from '@/components/offers/offer-card';
import { Notification } from '@/components/ui/notification';
import { TextField } from '@/components/ui/text-field';
import {
  useConfirmReceiptMutation,
  useMarkPaidMutation,
} from '@/features/collaborations/api/collaboration-work-api';
import { showRefusal } from '@/features/collaborations/utils/form-errors';
import { paymentActionOf, paymentStatusLooks } from '@/features/collaborations/utils/work';

export interface PaymentPanelProps {
  collaboration: Pick<CollaborationRecord, 'id' | 'status' | 'deliverables' | 'payment'>;
  side: CollaborationParty;
}

export function PaymentPanel({ collaboration, side }: PaymentPanelProps) {
  const { payment } = collaboration;
  const looks = paymentStatusLooks[payment.status];
  const action = paymentActionOf(collaboration, side);
  return (
    <section
      aria-labelledby="payment-heading"
      className="space-y-4 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="payment-heading" className="text-lg font-semibold text-slate-900">
          Payment
        </h2>
        <span data-testid="payment-status" data-status={payment.status}>
          <Badge tone={looks.tone}>{looks.label}</Badge>
        </span>
      </div>
      {payment.overdue && payment.status !== 'confirmed' && (
        <div
          role="alert"
          className="rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset"
        >
          {payment.status === 'paid'
            ? 'Overdue: the payment was marked as paid but its receipt is not confirmed yet.'
            : 'Overdue: the payment has been due for a while and is not marked as paid.'}
        </div>
      )}
      <dl className="grid grid-cols-1 gap-4">
        <Fact term="Amount">{payment.amount ? formatMoney(payment.amount) : 'None'}</Fact>
        {payment.dueAt && <Fact term="Due since">{formatDate(payment.dueAt)}</Fact>}
        {payment.paidAt && <Fact term="Marked as paid">{formatDate(payment.paidAt)}</Fact>}
        {payment.reference && <Fact term="Reference">{payment.reference}</Fact>}
        {payment.confirmedAt && <Fact term="Received">{formatDate(payment.confirmedAt)}</Fact>}
      </dl>
      {payment.status === 'not_due' && (
        <p className="text-sm text-slate-600">Due once every deliverable is approved.</p>
      )}
      {action === 'mark-paid' && <MarkPaidForm collaborationId={collaboration.id} />}
      {action === 'confirm' && <ConfirmReceipt collaborationId={collaboration.id} />}
      <p className="text-xs text-slate-500">{messages.paymentRecordedOnly}</p>
    </section>
  );
}

function MarkPaidForm({ collaborationId }: { collaborationId: string }) {
  const [markPaid] = useMarkPaidMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(markPaidSchema), defaultValues: { reference: '' } });

  const onSubmit = async (payment: MarkPaid) => {
    try {
      await markPaid({ collaborationId, payment }).unwrap();
    } catch (error) {
      showRefusal(error, setError, ['reference']);
    }
  };

  return (
    <form
      noValidate
      aria-label="Mark as paid"
      onSubmit={handleSubmit(onSubmit)}
      className="space-y-3"
    >
      <TextField
        label="Reference (optional)"
        hint={`Your own note of the transfer, at most ${PAYMENT_REFERENCE_MAX_LENGTH} characters.`}
        error={errors.reference?.message}
        {...register('reference')}
      />
      {errors.root?.server && <Notification>{errors.root.server.message}</Notification>}
      <Button type="submit" busy={isSubmitting}>
        Mark as paid
      </Button>
    </form>
  );
}

function ConfirmReceipt({ collaborationId }: { collaborationId: string }) {
  const [confirmReceipt, { isLoading }] = useConfirmReceiptMutation();
  const run = useCommandToast();
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-600">
        The brand marked the payment as paid. Confirm once you have received it.
      </p>
      <Button
        busy={isLoading}
        onClick={() =>
          void run(() => confirmReceipt({ collaborationId }).unwrap(), 'Receipt confirmed')
        }
      >
        Confirm receipt
      </Button>
    </div>
  );
}
