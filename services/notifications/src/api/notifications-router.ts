/**
 * A person's notifications over HTTP (docs/api.md "services/notifications"),
 * all with a bearer and for the caller's own items only:
 * `GET /notifications?cursor=&limit=` (a page, newest first, with the inbox),
 * `GET /notifications/inbox`, `POST /notifications/:id/read`,
 * `POST /notifications/read-all` (each answers the inbox after the change);
 * `GET /preferences` and `PUT /preferences` (the caller's notification
 * preferences by category and channel).
 */
import { callerOf, requireAccessToken, type AccessTokenVerifier } from '@raly/service-kit/auth';
import { Router } from 'express';
import type { NotificationsDependencies } from '../domain/dependencies';
import {
  markAllNotificationsRead,
  markNotificationRead,
  myInbox,
  myNotifications,
} from '../domain/inbox';
import { myPreferences, updateMyPreferences } from '../domain/preferences';

/**
 * @param verifyAccessToken the kit's verifier: every route needs a valid access token (else 401)
 * @returns the router of the notification routes
 */
export function notificationsRouter(
  dependencies: NotificationsDependencies,
  verifyAccessToken: AccessTokenVerifier,
): Router {
  const router = Router();
  const user = requireAccessToken(verifyAccessToken);
  router.get('/notifications', user, async (req, res) => {
    res.json({ data: await myNotifications(dependencies, callerOf(req), req.query) });
  });
  router.get('/notifications/inbox', user, async (req, res) => {
    res.json({ data: await myInbox(dependencies, callerOf(req)) });
  });
  router.post('/notifications/read-all', user, async (req, res) => {
    res.json({ data: await markAllNotificationsRead(dependencies, callerOf(req)) });
  });
  router.post('/notifications/:id/read', user, async (req, res) => {
    res.json({
      data: await markNotificationRead(dependencies, callerOf(req), req.params.id as string),
    });
  });
  router.get('/preferences', user, async (req, res) => {
    res.json({ data: await myPreferences(dependencies, callerOf(req)) });
  });
  router.put('/preferences', user, async (req, res) => {
    res.json({ data: await updateMyPreferences(dependencies, callerOf(req), req.body) });
  });
  return router;
}
