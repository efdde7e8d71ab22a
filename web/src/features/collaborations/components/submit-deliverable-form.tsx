/**
 * The creator hands in a deliverable: an http(s) link and an optional note,
 * checked by the shared `submitDeliverableSchema`.
 */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  SUBMISSION_NOTE_MAX_LENGTH,
  submitDeliverableSchema,
  type SubmitDeliverable,
} from '@raly/contracts/collaboration-work';
import { TextAreaField } from '@/components/ui/text-area-field';
import { TextField } from '@/components/ui/text-field';
import { useSubmitDeliverableMutation } from '@/features/collaborations/api/collaboration-work-api';
import { WorkForm } from '@/features/collaborations/components/work-form';
import { showRefusal } from '@/features/collaborations/utils/form-errors';

export interface SubmitDeliverableFormProps {
  collaborationId: string;
  deliverableId: string;
  title: string;
}

export function SubmitDeliverableForm({
  collaborationId,
  deliverableId,
  title,
}: SubmitDeliverableFormProps) {
  const [submitDeliverable] = useSubmitDeliverableMutation();
  const {
    register,
    handleSubmit,
    watch,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(submitDeliverableSchema),
    defaultValues: { link: '', note: '' },
  });

  const onSubmit = async (submission: SubmitDeliverable) => {
    try {
      await submitDeliverable({ collaborationId, deliverableId, submission }).unwrap();
      reset();
    } catch (error) {
      showRefusal(error, setError, ['link', 'note']);
    }
  };

  return (
    <WorkForm
      label={`Hand in ${title}`}
      onSubmit={handleSubmit(onSubmit)}
      refusal={errors.root?.server?.message}
      busy={isSubmitting}
      submitLabel="Hand in"
    >
      <TextField
        label="Link to the work"
        type="url"
        inputMode="url"
        placeholder="https://"
        error={errors.link?.message}
        {...register('link')}
      />
      <TextAreaField
        label="Note (optional)"
        rows={2}
        length={(watch('note') ?? '').length}
        maxLength={SUBMISSION_NOTE_MAX_LENGTH}
        error={errors.note?.message}
        {...register('note')}
      />
    </WorkForm>
  );
}
