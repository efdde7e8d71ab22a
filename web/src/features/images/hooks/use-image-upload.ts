/**
 * Choosing and uploading one image (spec §5, §8): checks the file first
 * (too large → 'Image size must be < 5MB', nothing sent), uploads it through
 * the image service (true or false, failures only logged), then toasts
 * 'Profile image updated!' / 'Cover image updated!' or
 * 'Hmm, there was a problem. Try again.'.
 */
import { useMemo } from 'react';
import { useDispatch } from 'react-redux';
import type { ImageKind, ImageOwnerType } from '@raly/contracts/images';
import { messages } from '@raly/contracts/messages';
import { showToast } from '@/lib/toast';
import { useUploadImageMutation } from '@/features/images/api/images-api';
import { createImageService } from '@/features/images/services/image-service';
import { checkImageFile } from '@/lib/image-file';

const successMessage: Record<ImageKind, string> = {
  profile: messages.profileImageUpdated,
  cover: messages.coverImageUpdated,
};

/**
 * @returns `upload(file)` (resolves once the outcome toast is shown) and
 *   `busy`, true while a file is being sent
 */
export function useImageUpload(ownerType: ImageOwnerType, kind: ImageKind) {
  const [uploadImage, { isLoading: busy }] = useUploadImageMutation();
  const images = useMemo(
    () => createImageService({ uploadImage: (args) => uploadImage(args).unwrap() }),
    [uploadImage],
  );
  const dispatch = useDispatch();

  const upload = async (file: File): Promise<void> => {
    const checked = checkImageFile(file);
    if (!checked.ok) {
      dispatch(showToast({ type: 'alert', message: checked.message }));
      return;
    }
    const stored = await images.uploadImage({ ownerType, kind, upload: checked.upload });
    dispatch(
      showToast(
        stored
          ? { type: 'success', message: successMessage[kind] }
          : { type: 'alert', message: messages.genericProblem },
      ),
    );
  };

  return { upload, busy };
}
