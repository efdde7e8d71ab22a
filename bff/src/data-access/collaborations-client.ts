/**
 * HTTP client of services/collaborations (docs/api.md "collaborations"):
 * a party's collaborations, their messages (a page of history, or one by its
 * id) and seen marks, and the work (deliverables, submissions, reviews,
 * payment, cancelling, the parties' reviews), with the user's bearer token forwarded unchanged, and the public
 * track records (no token), on the kit's HTTP client. The service's
 * errors come back unchanged (status, code, message, fields); no answer is
 * 503 `unavailable`.
 */
import type { BrandTrackRecord, CreatorTrackRecord } from '@raly/contracts/collaboration-reviews';
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
  MessagesPage,
  MessagesQuery,
} from '@raly/contracts/collaborations';
import { callHttp, dataOf, type HttpCallOptions } from '@raly/service-kit/internal';
import { serviceUrl } from '@raly/service-kit/service-path';
import type { Config } from '../config';

/** A sent message and whether this call recorded it (false: a retry answered with the stored one). */
export interface SentMessage {
  message: CollaborationMessageRecord;
  created: boolean;
}

/** Every method throws AppError as the collaborations service answered (its status and message). */
export interface CollaborationsClient {
  /** GET /collaborations → the caller's collaborations, newest activity first. */
  listCollaborations(accessToken: string): Promise<CollaborationRecord[]>;
  /** GET /collaborations/:id → the collaboration (its parties only; 404 for anyone else). */
  getCollaboration(accessToken: string, collaborationId: string): Promise<CollaborationRecord>;
  /** GET /collaborations/:id/messages?before=&limit= → one page of history, newest first. */
  listMessages(
    accessToken: string,
    collaborationId: string,
    query: MessagesQuery,
  ): Promise<MessagesPage>;
  /** GET /collaborations/messages/:messageId → one message (its collaboration's parties only; 404 for anyone else). */
  getMessage(accessToken: string, messageId: string): Promise<CollaborationMessageRecord>;
  /** POST /collaborations/:id/messages → the message (201 recorded, 200 a retry of its clientId). */
  sendMessage(accessToken: string, collaborationId: string, form: unknown): Promise<SentMessage>;
  /** POST /collaborations/:id/seen → the collaboration with the caller's side's seen mark. */
  markSeen(
    accessToken: string,
    collaborationId: string,
    mark: unknown,
  ): Promise<CollaborationRecord>;
  /** PUT /collaborations/:id/deliverables (the brand) → the collaboration with the new list. */
  setDeliverables(
    accessToken: string,
    collaborationId: string,
    form: unknown,
  ): Promise<CollaborationRecord>;
  /** POST /collaborations/:id/deliverables/:deliverableId/submissions (the creator) → the collaboration (201). */
  submitDeliverable(
    accessToken: string,
    collaborationId: string,
    deliverableId: string,
    form: unknown,
  ): Promise<CollaborationRecord>;
  /** POST /collaborations/:id/deliverables/:deliverableId/review (the brand) → the collaboration. */
  reviewDeliverable(
    accessToken: string,
    collaborationId: string,
    deliverableId: string,
    form: unknown,
  ): Promise<CollaborationRecord>;
  /** POST /collaborations/:id/payment/paid (the brand) → the collaboration. */
  markPaid(
    accessToken: string,
    collaborationId: string,
    form: unknown,
  ): Promise<CollaborationRecord>;
  /** POST /collaborations/:id/payment/received (the creator) → the completed collaboration. */
  confirmPayment(accessToken: string, collaborationId: string): Promise<CollaborationRecord>;
  /** POST /collaborations/:id/cancel (either party) → the cancelled collaboration. */
  cancel(accessToken: string, collaborationId: string, form: unknown): Promise<CollaborationRecord>;
  /** POST /collaborations/:id/review (either party, once completed) → the collaboration with the review. */
  leaveReview(
    accessToken: string,
    collaborationId: string,
    form: unknown,
  ): Promise<CollaborationRecord>;
  /** GET /public/brands/:brandId/track-record (no token) → the brand's reviews and figures. */
  brandTrackRecord(brandId: string): Promise<BrandTrackRecord>;
  /** GET /public/creators/:creatorId/track-record (no token) → the creator's reviews and figures. */
  creatorTrackRecord(creatorId: string): Promise<CreatorTrackRecord>;
}

/** `MessagesQuery` as the service's query parameters (`before` only when set). */
function messagesQueryOf(query: MessagesQuery): URLSearchParams {
  const search = new URLSearchParams({ limit: String(query.limit) });
  if (query.before !== undefined) search.set('before', String(query.before));
  return search;
}

/** @param config COLLABORATIONS_URL and the upstream timeout */
export function createCollaborationsClient(config: Config): CollaborationsClient {
  /** One call; its status and body, refusals thrown as the service answered. */
  const call = async (
    method: HttpCallOptions['method'],
    path: string[],
    request: Pick<HttpCallOptions, 'json' | 'bearer'>,
    query?: URLSearchParams,
    root = 'collaborations',
  ) => {
    const answer = await callHttp(serviceUrl(config.COLLABORATIONS_URL, [root, ...path], query), {
      method,
      ...request,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      target: 'collaborations',
      unreachable: 'unavailable',
    });
    return {
      status: answer.status,
      data: dataOf<unknown>(answer, 'collaborations service refused the request'),
    };
  };
  /** One call whose 2xx answer's `data` is the result. */
  const send = async <T>(...args: Parameters<typeof call>): Promise<T> =>
    (await call(...args)).data as T;
  return {
    listCollaborations: (bearer) => send('GET', [], { bearer }),
    getCollaboration: (bearer, id) => send('GET', [id], { bearer }),
    listMessages: (bearer, id, query) =>
      send('GET', [id, 'messages'], { bearer }, messagesQueryOf(query)),
    getMessage: (bearer, messageId) => send('GET', ['messages', messageId], { bearer }),
    async sendMessage(bearer, id, form) {
      const { status, data } = await call('POST', [id, 'messages'], { json: form ?? {}, bearer });
      return { message: data as CollaborationMessageRecord, created: status === 201 };
    },
    markSeen: (bearer, id, mark) => send('POST', [id, 'seen'], { json: mark ?? {}, bearer }),
    setDeliverables: (bearer, id, form) =>
      send('PUT', [id, 'deliverables'], { json: form ?? {}, bearer }),
    submitDeliverable: (bearer, id, deliverableId, form) =>
      send('POST', [id, 'deliverables', deliverableId, 'submissions'], {
        json: form ?? {},
        bearer,
      }),
    reviewDeliverable: (bearer, id, deliverableId, form) =>
      send('POST', [id, 'deliverables', deliverableId, 'review'], { json: form ?? {}, bearer }),
    markPaid: (bearer, id, form) =>
      send('POST', [id, 'payment', 'paid'], { json: form ?? {}, bearer }),
    confirmPayment: (bearer, id) => send('POST', [id, 'payment', 'received'], { json: {}, bearer }),
    cancel: (bearer, id, form) => send('POST', [id, 'cancel'], { json: form ?? {}, bearer }),
    leaveReview: (bearer, id, form) => send('POST', [id, 'review'], { json: form ?? {}, bearer }),
    brandTrackRecord: (brandId) =>
      send('GET', ['brands', brandId, 'track-record'], {}, undefined, 'public'),
    creatorTrackRecord: (creatorId) =>
      send('GET', ['creators', creatorId, 'track-record'], {}, undefined, 'public'),
  };
}
