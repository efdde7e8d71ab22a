/**
 * "Cancel collaboration" and its dialog: the brand may cancel without a
 * reason before the first submission; otherwise (the creator always, the
 * brand after a submission) a reason is required, which the other side
 * sees. Checked by the shared `cancelCollaborationSchema` and the service's
 * rule in the browser too.
 */
import { useCallback, useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  CANCEL_REASON_MAX_LENGTH,
  cancelCollaborationSchema,
  type CancelCollaboration,
} from '@raly/contracts/collaboration-work';
import { messages } from '@raly/contracts/messages';
import { Button } from '@/components/ui/button';
import { ModalDialog } from '@/components/ui/modal-dialog';
import { Notification } from '@/components/ui/notification';
import { TextAreaField } from '@/components/ui/text-area-field';
import { useCancelCollaborationMutation } from '@/features/collaborations/api/collaboration-work-api';
import { showRefusal } from '@/features/collaborations/utils/form-errors';

export interface CancelCollaborationProps {
  collaborationId: string;
  /** False only for the brand before the first submission. */
  reasonRequired: boolean;
}

export function CancelCollaboration({ collaborationId, reasonRequired }: CancelCollaborationProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Cancel collaboration
      </Button>
      <CancelCollaborationDialog
        open={open}
        onClose={() => setOpen(false)}
        collaborationId={collaborationId}
        reasonRequired={reasonRequired}
      />
    </>
  );
}

function CancelCollaborationDialog({
  open,
  onClose,
  collaborationId,
  reasonRequired,
}: CancelCollaborationProps & { open: boolean; onClose: () => void }) {
  const titleId = useId();
  const [cancelCollaboration] = useCancelCollaborationMutation();
  const schema = useMemo(
    () =>
      cancelCollaborationSchema.refine(({ reason }) => !reasonRequired || reason.length > 0, {
        message: messages.cancelReasonRequired,
        path: ['reason'],
      }),
    [reasonRequired],
  );
  const {
    register,
    handleSubmit,
    watch,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(schema), defaultValues: { reason: '' } });

  const onOpen = useCallback(() => reset({ reason: '' }), [reset]);

  const onSubmit = async (cancel: CancelCollaboration) => {
    try {
      await cancelCollaboration({ collaborationId, cancel }).unwrap();
      onClose();
    } catch (error) {
      showRefusal(error, setError, ['reason']);
    }
  };

  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      onOpen={onOpen}
      labelledBy={titleId}
      width="max-w-md"
    >
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          Cancel this collaboration?
        </h2>
        <p className="text-sm text-slate-600">
          The other side sees that it was cancelled{reasonRequired ? ' and your reason' : ''}. It
          cannot be undone, and the place on the offer does not open again.
        </p>
        <TextAreaField
          label={reasonRequired ? 'Reason' : 'Reason (optional)'}
          rows={3}
          length={(watch('reason') ?? '').length}
          maxLength={CANCEL_REASON_MAX_LENGTH}
          error={errors.reason?.message}
          {...register('reason')}
        />
        {errors.root?.server && <Notification>{errors.root.server.message}</Notification>}
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            Keep it
          </Button>
          <Button type="submit" busy={isSubmitting}>
            Cancel collaboration
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
