/**
 * Notifications (docs/api.md "Notifications"): `/api/notifications…`. Every
 * route needs a signed-in user, who only ever reaches their own items (the
 * service reads the person from the forwarded token).
 */
import { Router } from 'express';
import { callerOf } from '@raly/service-kit/auth';
import type { Authenticator } from '../auth/keycloak';
import {
  listNotifications,
  markAllRead,
  markRead,
  myInbox,
  myPreferences,
  updateMyPreferences,
  type NotificationsDependencies,
} from '../domain/notifications';
import type { RateLimits } from './rate-limit';

/**
 * Mounted at `/notifications`: the list (paged by cursor), the inbox (unread
 * count), marking one or all read (each answers the inbox after it), and the
 * caller's preferences (`GET|PUT /preferences`, docs/product-spec.md §12.5).
 * Marking read and changing preferences are rate-limited per user (429).
 */
export function notificationsRouter(
  authenticator: Authenticator,
  dependencies: NotificationsDependencies,
  limits: Pick<RateLimits, 'markRead' | 'updatePreferences'>,
): Router {
  return Router()
    .use(authenticator.requireUser)
    .get('/', async (request, response) => {
      response.json({
        data: await listNotifications(dependencies, callerOf(request), request.query),
      });
    })
    .get('/inbox', async (request, response) => {
      response.json({ data: await myInbox(dependencies, callerOf(request)) });
    })
    .get('/preferences', async (request, response) => {
      response.json({ data: await myPreferences(dependencies, callerOf(request)) });
    })
    .put('/preferences', limits.updatePreferences, async (request, response) => {
      response.json({
        data: await updateMyPreferences(dependencies, callerOf(request), request.body),
      });
    })
    .post('/read-all', limits.markRead, async (request, response) => {
      response.json({ data: await markAllRead(dependencies, callerOf(request)) });
    })
    .post('/:id/read', limits.markRead, async (request, response) => {
      // With a middleware before it, express's types lose the path's params; `:id` is one string.
      const notificationId = request.params.id as string;
      response.json({ data: await markRead(dependencies, callerOf(request), notificationId) });
    });
}
