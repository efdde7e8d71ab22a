/**
 * Collaborations over HTTP (docs/api.md "services/collaborations"), all with
 * a bearer and for the collaboration's parties only: `GET /collaborations`,
 * `GET /collaborations/:id`, `GET|POST /collaborations/:id/messages`,
 * `GET /collaborations/messages/:messageId` (one message by its id),
 * `POST /collaborations/:id/seen`, and the work: `PUT /collaborations/:id/deliverables`,
 * `POST /collaborations/:id/deliverables/:deliverableId/submissions|review`,
 * `POST /collaborations/:id/payment/paid|received`, `POST /collaborations/:id/cancel`,
 * once completed, `POST /collaborations/:id/review`;
 * `GET /collaborations/:id/images/:imageId` (whether a submission image is the collaboration's).
 * Each change answers the collaboration's snapshot after it.
 */
import { callerOf, requireAccessToken, type AccessTokenVerifier } from '@raly/service-kit/auth';
import { Router } from 'express';
import { getCollaboration, myCollaborations } from '../domain/collaborations';
import { attachedImage } from '../domain/deliverable-images';
import type { CollaborationsDependencies } from '../domain/dependencies';
import { markSeen, messageHistory, messageOfParty, sendMessage } from '../domain/messages';
import { reviewCollaboration } from '../domain/reviews';
import {
  cancelCollaboration,
  confirmPaymentReceived,
  markPaymentPaid,
  reviewDeliverable,
  setDeliverables,
  submitDeliverable,
} from '../domain/work-actions';

/**
 * @param verifyAccessToken the kit's verifier: every route needs a valid access token (else 401)
 * @returns the router of the collaboration routes
 */
export function collaborationsRouter(
  dependencies: CollaborationsDependencies,
  verifyAccessToken: AccessTokenVerifier,
): Router {
  const router = Router();
  const user = requireAccessToken(verifyAccessToken);
  const id = (value: unknown) => value as string;
  router.get('/collaborations', user, async (req, res) => {
    res.json({ data: await myCollaborations(dependencies, callerOf(req)) });
  });
  // Before `/collaborations/:id/messages`, which `/collaborations/messages/messages` also matches.
  router.get('/collaborations/messages/:messageId', user, async (req, res) => {
    res.json({
      data: await messageOfParty(dependencies, callerOf(req), id(req.params.messageId)),
    });
  });
  router.get('/collaborations/:id', user, async (req, res) => {
    res.json({ data: await getCollaboration(dependencies, callerOf(req), id(req.params.id)) });
  });
  router.get('/collaborations/:id/messages', user, async (req, res) => {
    res.json({
      data: await messageHistory(dependencies, callerOf(req), id(req.params.id), req.query),
    });
  });
  router.post('/collaborations/:id/messages', user, async (req, res) => {
    const sent = await sendMessage(dependencies, callerOf(req), id(req.params.id), req.body);
    // A retried send answers the message stored the first time, 200 instead of 201.
    res.status(sent.created ? 201 : 200).json({ data: sent.message });
  });
  router.post('/collaborations/:id/seen', user, async (req, res) => {
    res.json({ data: await markSeen(dependencies, callerOf(req), id(req.params.id), req.body) });
  });
  router.put('/collaborations/:id/deliverables', user, async (req, res) => {
    res.json({
      data: await setDeliverables(dependencies, callerOf(req), id(req.params.id), req.body),
    });
  });
  router.post(
    '/collaborations/:id/deliverables/:deliverableId/submissions',
    user,
    async (req, res) => {
      const { id: collaborationId, deliverableId } = req.params;
      res.status(201).json({
        data: await submitDeliverable(
          dependencies,
          callerOf(req),
          id(collaborationId),
          id(deliverableId),
          req.body,
        ),
      });
    },
  );
  router.post('/collaborations/:id/deliverables/:deliverableId/review', user, async (req, res) => {
    const { id: collaborationId, deliverableId } = req.params;
    res.json({
      data: await reviewDeliverable(
        dependencies,
        callerOf(req),
        id(collaborationId),
        id(deliverableId),
        req.body,
      ),
    });
  });
  router.post('/collaborations/:id/payment/paid', user, async (req, res) => {
    res.json({
      data: await markPaymentPaid(dependencies, callerOf(req), id(req.params.id), req.body),
    });
  });
  router.post('/collaborations/:id/payment/received', user, async (req, res) => {
    res.json({
      data: await confirmPaymentReceived(dependencies, callerOf(req), id(req.params.id)),
    });
  });
  router.get('/collaborations/:id/images/:imageId', user, async (req, res) => {
    const { id: collaborationId, imageId } = req.params;
    res.json({
      data: await attachedImage(dependencies, callerOf(req), id(collaborationId), id(imageId)),
    });
  });
  router.post('/collaborations/:id/cancel', user, async (req, res) => {
    res.json({
      data: await cancelCollaboration(dependencies, callerOf(req), id(req.params.id), req.body),
    });
  });
  router.post('/collaborations/:id/review', user, async (req, res) => {
    res.json({
      data: await reviewCollaboration(dependencies, callerOf(req), id(req.params.id), req.body),
    });
  });
  return router;
}
