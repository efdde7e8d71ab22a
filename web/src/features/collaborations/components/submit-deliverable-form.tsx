/**
 * The creator hands in a deliverable: an http(s) link, an optional note,
 * checked by the shared `submitDeliverableSchema`, and an optional image,
 * uploaded first (media checks it again) and handed in by its id.
 */
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  SUBMISSION_NOTE_MAX_LENGTH,
  submitDeliverableSchema,
  type SubmitDeliverable,
} from '@raly/contracts/collaboration-work';
import { TextAreaField } from '@/components/ui/text-area-field';
import { messages } from '@raly/contracts/messages';
import { TextField } from '@/components/ui/text-field';
import { apiErrorMessage } from '@/lib/api-error';
import type { ImageUpload } from '@/lib/image-file';
import { useSubmitDeliverableMutation } from '@/features/collaborations/api/collaboration-work-api';
import { useUploadDeliverableImageMutation } from '@/features/collaborations/api/deliverable-images-api';
import { SubmissionImageField } from '@/features/collaborations/components/submission-image-field';
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
  const [uploadImage] = useUploadDeliverableImageMutation();
  const [image, setImage] = useState<ImageUpload | null>(null);
  const [imageError, setImageError] = useState<string>();
  // The image already stored for the chosen file: a retry after a refused hand-in sends it once.
  const uploaded = useRef<{ image: ImageUpload; imageId: string } | null>(null);
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

  const chooseImage = (chosen: ImageUpload | null) => {
    setImage(chosen);
    setImageError(undefined);
  };

  /** @returns the chosen image's id (null: none chosen), or undefined when its upload was refused */
  const storedImageId = async (): Promise<string | null | undefined> => {
    if (!image) return null;
    if (uploaded.current?.image === image) return uploaded.current.imageId;
    try {
      const { imageId } = await uploadImage({ collaborationId, upload: image }).unwrap();
      uploaded.current = { image, imageId };
      return imageId;
    } catch (error) {
      setImageError(apiErrorMessage(error, messages.genericProblem));
      return undefined;
    }
  };

  const onSubmit = async (submission: SubmitDeliverable) => {
    const imageId = await storedImageId();
    if (imageId === undefined) return;
    try {
      await submitDeliverable({
        collaborationId,
        deliverableId,
        submission: { ...submission, imageId },
      }).unwrap();
      reset();
      chooseImage(null);
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
      <SubmissionImageField
        image={image}
        onChange={chooseImage}
        error={imageError}
        onRefused={(message) => {
          setImage(null);
          setImageError(message);
        }}
      />
    </WorkForm>
  );
}
