/**
 * What an uploaded file really is (spec §5, §9): the declared extension and
 * type must be accepted and agree, and the bytes must be that type — raster
 * types by their magic numbers (`file-type`), SVG as XML text whose root is
 * `<svg`. SVG is then sanitised (DOMPurify on jsdom): no scripts, no event
 * handlers, no foreignObject, no styles, no references outside the file.
 */
import {
  contentTypeByExtension,
  isImageExtension,
  type ImageExtension,
} from '@raly/contracts/images';
import { IMAGE_EXTENSIONS } from '@raly/contracts/constants';
import DOMPurify from 'dompurify';
import { fileTypeFromBuffer } from 'file-type';
import { JSDOM } from 'jsdom';
import { mediaErrors } from './errors';

/** What the uploader said the file is (spec §3 image upload payload). */
export interface DeclaredFile {
  /** The file name, e.g. `me.png`. */
  name: string;
  /** Without the dot; default the name's extension. */
  extension?: string;
  mimeType: string;
}

/** A checked image, ready to store. */
export interface CheckedImage {
  extension: ImageExtension;
  contentType: string;
  bytes: Buffer;
}

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/**
 * Checks the file and, for SVG, sanitises it.
 * @param bytes the whole file (at most IMAGE_MAX_BYTES)
 * @returns the extension, the content type and the bytes to store
 * @throws AppError invalid-argument when the type is not accepted or the bytes disagree
 */
export async function checkImage(declared: DeclaredFile, bytes: Buffer): Promise<CheckedImage> {
  const extension = (declared.extension ?? declared.name.split('.').pop() ?? '')
    .replace(/^\./, '')
    .toLowerCase();
  if (!isImageExtension(extension)) {
    throw mediaErrors.imageRejected(`Accepted types: ${IMAGE_EXTENSIONS.join(', ')}`);
  }
  const contentType = contentTypeByExtension[extension];
  const declaredType = declared.mimeType.toLowerCase().replace('image/jpg', 'image/jpeg');
  if (declaredType !== contentType)
    throw mediaErrors.imageRejected('The file type does not match its extension');
  if (bytes.length === 0) throw mediaErrors.imageRejected('The file is empty');

  if (extension === 'svg')
    return { extension, contentType, bytes: Buffer.from(sanitizeSvg(svgTextOf(bytes)), 'utf8') };
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed?.mime !== contentType)
    throw mediaErrors.imageRejected('The file content is not the declared type');
  return { extension, contentType, bytes };
}

/** The text of an SVG file, refused unless it is UTF-8 XML whose root element is `<svg`. */
function svgTextOf(bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw mediaErrors.imageRejected('The file content is not the declared type');
  }
  const prolog =
    /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE\s+svg[^>[]*>\s*)*<svg[\s>/]/i;
  if (!prolog.test(text) || /<!ENTITY/i.test(text)) {
    throw mediaErrors.imageRejected('The file content is not the declared type');
  }
  return text;
}

const purify = DOMPurify(new JSDOM('').window as unknown as Parameters<typeof DOMPurify>[0]);
purify.addHook('uponSanitizeAttribute', (_node, data) => {
  const name = data.attrName.toLowerCase();
  // Only same-document references survive: no external images, fonts or scripts.
  if (
    (name === 'href' || name === 'xlink:href' || name === 'src') &&
    !data.attrValue.trim().startsWith('#')
  ) {
    data.keepAttr = false;
  }
  if (/url\s*\(\s*['"]?\s*(?!#)/i.test(data.attrValue)) data.keepAttr = false;
});

/**
 * Sanitises SVG markup.
 * @returns a standalone SVG document (root `<svg>` in the SVG namespace)
 * @throws AppError invalid-argument when nothing of an SVG is left
 */
export function sanitizeSvg(svg: string): string {
  const clean = purify.sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ['foreignObject', 'style', 'a', 'use', 'script'],
    FORBID_ATTR: ['style'],
  });
  if (!/^<svg[\s>]/i.test(clean))
    throw mediaErrors.imageRejected('The file content is not the declared type');
  return /^<svg[^>]*\sxmlns=/i.test(clean)
    ? clean
    : clean.replace(/^<svg/i, `<svg xmlns="${SVG_NAMESPACE}"`);
}
