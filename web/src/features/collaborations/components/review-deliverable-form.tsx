/**
 * The brand reviews a submitted deliverable: only the decisions
 * `reviewDecisionsFor` leaves (request changes while rounds remain, a
 * dispute past the last), with a comment required unless approving, as the
 * shared `reviewDeliverableSchema` says.
 */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  REVIEW_COMMENT_MAX_LENGTH,
  reviewDecisionsFor,
  reviewDeliverableSchema,
  type Deliverable,
  type ReviewDeliverable,
} from '@raly/contracts/collaboration-work';
import { TextAreaField } from '@/components/ui/text-area-field';
import { useReviewDeliverableMutation } from '@/features/collaborations/api/collaboration-work-api';
import { WorkForm } from '@/features/collaborations/components/work-form';
import { showRefusal } from '@/features/collaborations/utils/form-errors';
import { decisionLabels } from '@/features/collaborations/utils/work';

export interface ReviewDeliverableFormProps {
  collaborationId: string;
  deliverable: Pick<Deliverable, 'id' | 'title' | 'changeRequests'>;
}

export function ReviewDeliverableForm({
  collaborationId,
  deliverable,
}: ReviewDeliverableFormProps) {
  const [reviewDeliverable] = useReviewDeliverableMutation();
  const decisions = reviewDecisionsFor(deliverable.changeRequests);
  const {
    register,
    handleSubmit,
    watch,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(reviewDeliverableSchema),
    defaultValues: { decision: 'approve' as ReviewDeliverable['decision'], comment: '' },
  });
  const decision = watch('decision');

  const onSubmit = async (review: ReviewDeliverable) => {
    try {
      await reviewDeliverable({ collaborationId, deliverableId: deliverable.id, review }).unwrap();
      reset();
    } catch (error) {
      showRefusal(error, setError, ['decision', 'comment']);
    }
  };

  return (
    <WorkForm
      label={`Review ${deliverable.title}`}
      onSubmit={handleSubmit(onSubmit)}
      refusal={errors.root?.server?.message}
      busy={isSubmitting}
      submitLabel="Send review"
    >
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Your review</legend>
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          {decisions.map((each) => (
            <label key={each} className="flex items-center gap-2 text-sm text-slate-900">
              <input
                type="radio"
                value={each}
                className="size-4 border-slate-300 text-indigo-600 focus:ring-indigo-600"
                {...register('decision')}
              />
              {decisionLabels[each]}
            </label>
          ))}
        </div>
      </fieldset>
      <TextAreaField
        label={decision === 'approve' ? 'Comment (optional)' : 'Comment'}
        rows={2}
        length={(watch('comment') ?? '').length}
        maxLength={REVIEW_COMMENT_MAX_LENGTH}
        error={errors.comment?.message}
        {...register('comment')}
      />
    </WorkForm>
  );
}
