/**
 * A party reviews the other side of a completed collaboration: 1 to 5
 * stars and an optional comment of at most 500 characters with a counter,
 * checked by the shared `leaveReviewSchema` so the browser and the service
 * answer each rule with the same message.
 */
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  leaveReviewSchema,
  PARTY_REVIEW_COMMENT_MAX_LENGTH,
  REVIEW_RATING_MAX,
  REVIEW_RATING_MIN,
  type LeaveReview,
} from '@raly/contracts/collaboration-reviews';
import { TextAreaField } from '@/components/ui/text-area-field';
import { useLeaveReviewMutation } from '@/features/collaborations/api/collaboration-reviews-api';
import { WorkForm } from '@/features/collaborations/components/work-form';
import { showRefusal } from '@/features/collaborations/utils/form-errors';

const ratings = Array.from(
  { length: REVIEW_RATING_MAX - REVIEW_RATING_MIN + 1 },
  (_, index) => REVIEW_RATING_MIN + index,
);

export interface LeaveReviewFormProps {
  collaborationId: string;
  /** Who is reviewed, in public words: the brand's company or the creator's username. */
  reviewee: string;
}

export function LeaveReviewForm({ collaborationId, reviewee }: LeaveReviewFormProps) {
  const [leaveReview] = useLeaveReviewMutation();
  const {
    control,
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(leaveReviewSchema),
    defaultValues: { comment: '' },
  });

  const onSubmit = async (review: LeaveReview) => {
    try {
      await leaveReview({ collaborationId, review }).unwrap();
    } catch (error) {
      showRefusal(error, setError, ['rating', 'comment']);
    }
  };

  return (
    <WorkForm
      label={`Review ${reviewee}`}
      onSubmit={handleSubmit(onSubmit)}
      refusal={errors.root?.server?.message}
      busy={isSubmitting}
      submitLabel="Publish review"
    >
      <Controller
        control={control}
        name="rating"
        render={({ field }) => (
          <fieldset aria-describedby={errors.rating ? 'review-rating-message' : undefined}>
            <legend className="text-sm font-medium text-slate-700">Stars</legend>
            <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
              {ratings.map((rating) => (
                <label key={rating} className="flex items-center gap-1.5 text-sm text-slate-900">
                  <input
                    type="radio"
                    name={field.name}
                    value={rating}
                    checked={field.value === rating}
                    onChange={() => field.onChange(rating)}
                    onBlur={field.onBlur}
                    className="size-4 border-slate-300 text-indigo-600 focus:ring-indigo-600"
                  />
                  {rating === 1 ? '1 star' : `${rating} stars`}
                </label>
              ))}
            </div>
            {errors.rating?.message && (
              <p id="review-rating-message" className="mt-1 text-sm text-red-600">
                {errors.rating.message}
              </p>
            )}
          </fieldset>
        )}
      />
      <TextAreaField
        label="Comment (optional)"
        rows={3}
        length={(watch('comment') ?? '').length}
        maxLength={PARTY_REVIEW_COMMENT_MAX_LENGTH}
        error={errors.comment?.message}
        {...register('comment')}
      />
    </WorkForm>
  );
}
