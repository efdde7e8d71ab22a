/**
 * Collaborations over HTTP (docs/api.md "services/collaborations"), all with
 * a bearer and for the collaboration's parties only: `GET /collaborations`,
 * `GET /collaborations/:id`, `GET|POST /collaborations/:id/messages`,
 * `POST /collaborations/:id/seen`.
 */
import { callerOf, requireAccessToken, type AccessTokenVerifier } from '@raly/service-kit/auth';
import { Router } from 'express';
import { getCollaboration, myCollaborations } from '../domain/collaborations';
import type { CollaborationsDependencies } from '../domain/dependencies';
import { markSeen, messageHistory, sendMessage } from '../domain/messages';

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
  return router;
}
