/**
 * Collaborations (docs/api.md "Collaborations"): `/api/collaborations…`.
 * Every route needs a signed-in user; services/collaborations decides who
 * is a party with the forwarded token.
 */
import { Router } from 'express';
import { callerOf } from '@raly/service-kit/auth';
import type { Authenticator } from '../auth/keycloak';
import {
  cancelCollaboration,
  collaborationsSummary,
  confirmPayment,
  getCollaboration,
  leaveReview,
  listCollaborations,
  listMessages,
  markPaid,
  markSeen,
  reviewDeliverable,
  sendMessage,
  setDeliverables,
  submitDeliverable,
  type CollaborationsDependencies,
} from '../domain/collaborations';
import type { RateLimits } from './rate-limit';

/**
 * Mounted at `/collaborations`: the caller's collaborations, their messages
 * and seen marks, the work and, once completed, the parties' reviews; every
 * action answers the collaboration.
 */
export function collaborationsRouter(
  authenticator: Authenticator,
  dependencies: CollaborationsDependencies,
  limits: Pick<RateLimits, 'sendMessage' | 'submitDeliverable' | 'leaveReview'>,
): Router {
  return Router()
    .use(authenticator.requireUser)
    .get('/', async (request, response) => {
      response.json({ data: await listCollaborations(dependencies, callerOf(request)) });
    })
    .get('/summary', async (request, response) => {
      response.json({ data: await collaborationsSummary(dependencies, callerOf(request)) });
    })
    .get('/:id', async (request, response) => {
      response.json({
        data: await getCollaboration(dependencies, callerOf(request), request.params.id),
      });
    })
    .get('/:id/messages', async (request, response) => {
      const { id } = request.params;
      response.json({
        data: await listMessages(dependencies, callerOf(request), id, request.query),
      });
    })
    .post('/:id/messages', limits.sendMessage, async (request, response) => {
      // With a middleware before it, express's types lose the path's params; `:id` is one string.
      const collaborationId = request.params.id as string;
      const sent = await sendMessage(
        dependencies,
        callerOf(request),
        collaborationId,
        request.body,
      );
      // 200 for a retry of the same clientId: nothing new was recorded.
      response.status(sent.created ? 201 : 200).json({ data: sent.message });
    })
    .post('/:id/seen', async (request, response) => {
      response.json({
        data: await markSeen(dependencies, callerOf(request), request.params.id, request.body),
      });
    })
    .put('/:id/deliverables', async (request, response) => {
      response.json({
        data: await setDeliverables(
          dependencies,
          callerOf(request),
          request.params.id,
          request.body,
        ),
      });
    })
    .post(
      '/:id/deliverables/:deliverableId/submissions',
      limits.submitDeliverable,
      async (request, response) => {
        // As for messages: after a middleware, express's types lose the path's params.
        const ids = {
          collaborationId: request.params.id as string,
          deliverableId: request.params.deliverableId as string,
        };
        response.status(201).json({
          data: await submitDeliverable(dependencies, callerOf(request), ids, request.body),
        });
      },
    )
    .post('/:id/deliverables/:deliverableId/review', async (request, response) => {
      const { id: collaborationId, deliverableId } = request.params;
      response.json({
        data: await reviewDeliverable(
          dependencies,
          callerOf(request),
          { collaborationId, deliverableId },
          request.body,
        ),
      });
    })
    .post('/:id/payment/paid', async (request, response) => {
      response.json({
        data: await markPaid(dependencies, callerOf(request), request.params.id, request.body),
      });
    })
    .post('/:id/payment/received', async (request, response) => {
      response.json({
        data: await confirmPayment(dependencies, callerOf(request), request.params.id),
      });
    })
    .post('/:id/cancel', async (request, response) => {
      response.json({
        data: await cancelCollaboration(
          dependencies,
          callerOf(request),
          request.params.id,
          request.body,
        ),
      });
    })
    .post('/:id/review', limits.leaveReview, async (request, response) => {
      // As for messages: after a middleware, express's types lose the path's params.
      const collaborationId = request.params.id as string;
      response.json({
        data: await leaveReview(dependencies, callerOf(request), collaborationId, request.body),
      });
    });
}
