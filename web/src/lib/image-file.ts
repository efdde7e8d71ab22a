/**
 * The browser's checks of an image before it is uploaded (spec §3, §5, §9),
 * and the multipart body of the upload (docs/api.md POST /api/images):
 * the fields `name`, `extension`, `mimeType`, then the part `file`. The
 * server checks everything again against the bytes; these checks only save
 * the user a pointless upload.
 */
import { IMAGE_EXTENSIONS, IMAGE_MAX_BYTES } from '@raly/contracts/constants';
import {
  contentTypeByExtension,
  isImageExtension,
  type ImageExtension,
} from '@raly/contracts/images';
import { messages } from '@raly/contracts/messages';

/** The image upload payload of spec §3. */
export interface ImageUpload {
  file: Blob;
  /** The chosen file's name, e.g. `logo.png`. */
  name: string;
  /** Lowercase, without the dot. */
  extension: ImageExtension;
  mimeType: string;
}

export type ImageFileCheck = { ok: true; upload: ImageUpload } | { ok: false; message: string };

/** The file picker's `accept`: every extension of spec §9 and its content type. */
export const IMAGE_ACCEPT = [
  ...IMAGE_EXTENSIONS.map((extension) => `.${extension}`),
  ...new Set(Object.values(contentTypeByExtension)),
].join(',');

/** @returns the lowercase extension of a file name without the dot ('' when it has none) */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/**
 * @param file the chosen file (`name`, `size` in bytes, `type` as the browser reports it)
 * @returns the upload payload, or the message to show instead of uploading:
 *   'Image size must be < 5MB' above IMAGE_MAX_BYTES; the generic problem
 *   text for a type other than png, jpeg, jpg, svg, webp
 */
export function checkImageFile(file: File): ImageFileCheck {
  if (file.size > IMAGE_MAX_BYTES) return { ok: false, message: messages.imageTooLarge };
  const extension = extensionOf(file.name);
  if (!isImageExtension(extension)) return { ok: false, message: messages.genericProblem };
  return {
    ok: true,
    upload: {
      file,
      name: file.name,
      extension,
      mimeType: file.type || contentTypeByExtension[extension],
    },
  };
}

/** @returns the multipart body: `name`, `extension`, `mimeType`, then `file` (the order media reads them in) */
export function imageUploadForm(upload: ImageUpload): FormData {
  const form = new FormData();
  form.append('name', upload.name);
  form.append('extension', upload.extension);
  form.append('mimeType', upload.mimeType);
  form.append('file', upload.file, upload.name);
  return form;
}
