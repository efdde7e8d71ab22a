/**
 * Choosing and uploading one image (spec §5, §8): checks the file first
 * (too large → 'Image size must be < 5MB', nothing sent), uploads it, then
 * toasts 'Profile image updated!' / 'Cover image updated!' or
 * 'Hmm, there was a problem. Try again.'.
 */
import { useDispatch } from 'react-redux';
import type { ImageKind, ImageOwnerType } from '@raly/contracts/images';
import { messages } from '@raly/contracts/messages';
import { showToast } from '@/lib/toast';
import { useUploadImageMutation } from '@/features/images/api/images-api';
import { checkImageFile } from '@/features/images/utils/image-file';

const successMessage: Record<ImageKind, string> = {
  profile: messages.profileImageUpdated,
  cover: messages.coverImageUpdated,
};

/** Spec §8: an upload failure says the generic text; the server's 413 (a file it found too large) says so. */
function uploadFailureMessage(error: unknown): string {
  return (error as { status?: unknown } | null)?.status === 413
    ? messages.imageTooLarge
    : messages.genericProblem;
}

/**
 * @returns `upload(file)` (resolves once the outcome toast is shown) and
 *   `busy`, true while a file is being sent
 */
export function useImageUpload(ownerType: ImageOwnerType, kind: ImageKind) {
  const [uploadImage, { isLoading: busy }] = useUploadImageMutation();
  const dispatch = useDispatch();

  const upload = async (file: File): Promise<void> => {
    const checked = checkImageFile(file);
    if (!checked.ok) {
      dispatch(showToast({ type: 'alert', message: checked.message }));
      return;
    }
    try {
      await uploadImage({ ownerType, kind, upload: checked.upload }).unwrap();
      dispatch(showToast({ type: 'success', message: successMessage[kind] }));
    } catch (error) {
      dispatch(showToast({ type: 'alert', message: uploadFailureMessage(error) }));
    }
  };

  return { upload, busy };
}
