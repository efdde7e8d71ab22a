/** GET and PATCH /api/me: the signed-in user's record and brand (docs/api.md). */
import { Router } from 'express';
import { userOf, type Authenticator } from '../auth/keycloak';
import { getMe, updateMe, type MeDependencies } from '../domain/me';
import { failures } from '../errors/failures';

export function meRouter(authenticator: Authenticator, dependencies: MeDependencies): Router {
  const currentUser = (locals: Parameters<typeof userOf>[0]) => {
    const user = userOf(locals);
    if (!user) throw failures.unauthenticated();
    return user;
  };
  return Router()
    .use(authenticator.requireUser)
    .get('/', async (_request, response) => {
      response.json({ data: await getMe(dependencies, currentUser(response)) });
    })
    .patch('/', async (request, response) => {
      response.json({ data: await updateMe(dependencies, currentUser(response), request.body) });
    });
}
