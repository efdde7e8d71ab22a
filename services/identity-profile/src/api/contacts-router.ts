/**
 * `GET /contacts/:userId` (docs/api.md "Internal endpoints"): a user's
 * e-mail address and own username, for the notifications service when it
 * sends them an e-mail. Internal: only with the service token of a caller the
 * guard allows; the BFF never proxies it.
 */
import type { UserContact } from '@raly/contracts/internal';
import { Router, type RequestHandler } from 'express';
import type { IdentityDependencies } from '../domain/dependencies';
import { identityErrors } from '../domain/errors';

/**
 * @param internal the guard of the route (kit `requireServiceCaller`): 401 without a valid
 *   caller token, 403 for a caller not allowed
 * @returns the router; 404 `not-found` for an unknown user
 */
export function contactsRouter(
  dependencies: IdentityDependencies,
  internal: RequestHandler,
): Router {
  const router = Router();
  router.use('/contacts', internal);
  router.get('/contacts/:userId', async (req, res) => {
    const user = await dependencies.users.findById(req.params.userId);
    if (!user) throw identityErrors.userNotFound();
    const contact: UserContact = { email: user.email, username: user.username };
    res.json({ data: contact });
  });
  return router;
}
