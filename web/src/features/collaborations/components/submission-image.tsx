/**
 * The image handed in with a submission, as both parties see it: read
 * through the BFF with the viewer's token (only the collaboration's parties
 * may), shown once loaded, with a short note when it cannot be read.
 */
import { Spinner } from '@/components/ui/spinner';
import { useDeliverableImage } from '@/features/collaborations/hooks/use-deliverable-image';

export interface SubmissionImageProps {
  collaborationId: string;
  imageId: string;
  /** The submission's round, for the image's description. */
  round: number;
}

export function SubmissionImage({ collaborationId, imageId, round }: SubmissionImageProps) {
  const image = useDeliverableImage(collaborationId, imageId);
  if (image.status === 'failed')
    return <p className="text-slate-600">The image of round {round} could not be loaded.</p>;
  if (image.status === 'loading')
    return (
      <p className="flex items-center gap-2 text-slate-600" aria-live="polite">
        <Spinner /> Loading the image…
      </p>
    );
  return (
    <img
      src={image.url}
      alt={`Image handed in with round ${round}`}
      data-image-id={imageId}
      className="max-h-64 max-w-full rounded-md object-contain ring-1 ring-slate-200"
    />
  );
}
