/**
 * A button that opens the file chooser for one image (png, jpeg, jpg, svg,
 * webp) and uploads the chosen file; busy with a spinner while it uploads.
 */
import { useRef } from 'react';
import type { ImageKind, ImageOwnerType } from '@raly/contracts/images';
import { Button, type ButtonProps } from '@/components/ui/button';
import { useImageUpload } from '@/features/images/hooks/use-image-upload';
import { IMAGE_ACCEPT } from '@/lib/image-file';

export interface ImagePickerButtonProps {
  ownerType: ImageOwnerType;
  kind: ImageKind;
  /** The button's text, e.g. 'Change cover image'. */
  label: string;
  variant?: ButtonProps['variant'];
  className?: string;
}

export function ImagePickerButton({
  ownerType,
  kind,
  label,
  variant = 'secondary',
  className,
}: ImagePickerButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  const { upload, busy } = useImageUpload(ownerType, kind);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={IMAGE_ACCEPT}
        hidden
        tabIndex={-1}
        aria-label={label}
        onChange={async (event) => {
          const file = event.target.files?.[0];
          // Cleared so that choosing the same file again is a change too.
          event.target.value = '';
          if (file) await upload(file);
        }}
      />
      <Button
        variant={variant}
        busy={busy}
        className={className}
        onClick={() => input.current?.click()}
      >
        {label}
      </Button>
    </>
  );
}
