/**
 * The bytes of a submission's image as an object URL for `<img src>`. The
 * BFF serves them to the collaboration's parties only, with the access
 * token in the `Authorization` header (which an `<img>` cannot send), so
 * they are fetched here and the URL is revoked when the image goes away.
 */
import { useEffect, useState } from 'react';
import { env } from '@/config/env';
import { getAccessToken } from '@/lib/session';
import { newTraceparent, TRACEPARENT_HEADER } from '@/lib/traceparent';

/** What the image shows: loading, its object URL, or that it could not be read. */
export type DeliverableImageState =
  { status: 'loading' } | { status: 'ready'; url: string } | { status: 'failed' };

/** The BFF path of a submission's image. */
export const deliverableImagePath = (collaborationId: string, imageId: string) =>
  `/collaborations/${encodeURIComponent(collaborationId)}/images/${encodeURIComponent(imageId)}`;

/**
 * @param collaborationId the collaboration the submission belongs to
 * @param imageId the submission's `imageId`
 * @returns the state of the image's object URL
 */
export function useDeliverableImage(
  collaborationId: string,
  imageId: string,
): DeliverableImageState {
  const [state, setState] = useState<DeliverableImageState>({ status: 'loading' });
  useEffect(() => {
    let cancelled = false;
    let objectUrl: string | undefined;
    setState({ status: 'loading' });
    (async () => {
      const token = await getAccessToken();
      const headers = new Headers({ [TRACEPARENT_HEADER]: newTraceparent() });
      if (token) headers.set('Authorization', `Bearer ${token}`);
      const url = new URL(
        `${env.apiBaseUrl}${deliverableImagePath(collaborationId, imageId)}`,
        window.location.origin,
      );
      const response = await fetch(new Request(url, { headers }));
      if (!response.ok) throw new Error(`image answered ${response.status}`);
      const blob = await response.blob();
      if (cancelled) return;
      objectUrl = URL.createObjectURL(blob);
      setState({ status: 'ready', url: objectUrl });
    })().catch(() => {
      if (!cancelled) setState({ status: 'failed' });
    });
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [collaborationId, imageId]);
  return state;
}
