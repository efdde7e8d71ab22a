/**
 * The optional image of a submission: a file chooser for one image (png,
 * jpeg, jpg, svg, webp; at most 5 MB, checked before anything is sent,
 * with the upload's own messages), a preview of the chosen file and a way
 * to take it off again. The image is uploaded only when the form is sent.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { checkImageFile, IMAGE_ACCEPT, type ImageUpload } from '@/lib/image-file';

export interface SubmissionImageFieldProps {
  /** The chosen image, or null. */
  image: ImageUpload | null;
  /** A checked image was chosen (or null: taken off). */
  onChange: (image: ImageUpload | null) => void;
  /** The message under the field: the browser's check or the upload's refusal. */
  error?: string;
  /** A chosen file failed the browser's check (too large, not an accepted type). */
  onRefused: (message: string) => void;
}

export function SubmissionImageField({
  image,
  onChange,
  error,
  onRefused,
}: SubmissionImageFieldProps) {
  const inputId = useId();
  const messageId = `${inputId}-message`;
  const input = useRef<HTMLInputElement>(null);
  const preview = usePreviewUrl(image);
  return (
    <div>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
        Image (optional)
      </label>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={IMAGE_ACCEPT}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? messageId : undefined}
        className="mt-1 block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-white file:px-3 file:py-2 file:text-sm file:font-semibold file:text-slate-900 file:shadow-sm file:ring-1 file:ring-slate-300 file:ring-inset hover:file:bg-slate-50"
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared so that choosing the same file again is a change too.
          event.target.value = '';
          if (!file) return;
          const checked = checkImageFile(file);
          if (checked.ok) onChange(checked.upload);
          else onRefused(checked.message);
        }}
      />
      {error && (
        <p id={messageId} role="alert" className="mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
      {image && preview && (
        <div className="mt-2 flex items-end gap-3">
          <img
            src={preview}
            alt={`Preview of ${image.name}`}
            className="max-h-40 max-w-full rounded-md object-contain ring-1 ring-slate-200"
          />
          <Button variant="secondary" onClick={() => onChange(null)}>
            Remove image
          </Button>
        </div>
      )}
    </div>
  );
}

/** An object URL of the chosen file while it is chosen (revoked after). */
function usePreviewUrl(image: ImageUpload | null): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!image) {
      setUrl(undefined);
      return;
    }
    const objectUrl = URL.createObjectURL(image.file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [image]);
  return url;
}
