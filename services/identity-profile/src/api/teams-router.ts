/**
 * `POST /queries/invitation-preview` and `POST /brand-memberships/sync` (docs/api.md
 * "Internal endpoints"): the BFF only, with the service token.
 */
import { Router, type RequestHandler } from 'express';
import type { IdentityDependencies } from '../domain/dependencies';
import { previewInvitation, syncMembership } from '../domain/teams';

/** @param internal the guard of the internal routes (kit `requireServiceCaller`) */
export function teamsRouter(dependencies: IdentityDependencies, internal: RequestHandler): Router {
  return Router()
    .post('/queries/invitation-preview', internal, async (req, res) => {
      res.json({ data: await previewInvitation(dependencies, req.body) });
    })
    .post('/brand-memberships/sync', internal, async (req, res) => {
      res.json({ data: await syncMembership(dependencies, req.body) });
    });
}
