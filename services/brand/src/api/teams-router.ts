/**
 * A brand's team (members, bearer; docs/api.md): `GET /brands/:id/team`,
 * `GET|POST /brands/:id/invitations`, `DELETE /brands/:id/invitations/:invitationId`,
 * `PUT /brands/:id/members/me/handle`, `PATCH|DELETE /brands/:id/members/:userId`.
 */
import { callerOf, requireAccessToken, type AccessTokenVerifier } from '@raly/service-kit/auth';
import { Router } from 'express';
import type { BrandDependencies } from '../domain/dependencies';
import {
  cancelInvitation,
  chooseHandle,
  getTeam,
  inviteTeammate,
  listInvitations,
  removeMember,
  setMemberRole,
} from '../domain/teams';

/** @returns the router of the team routes, every one behind the access-token check */
export function teamsRouter(
  dependencies: BrandDependencies,
  verifyAccessToken: AccessTokenVerifier,
): Router {
  const member = requireAccessToken(verifyAccessToken);
  const brandId = (params: Record<string, unknown>) => params.id as string;
  return Router()
    .get('/brands/:id/team', member, async (req, res) => {
      res.json({ data: await getTeam(dependencies, brandId(req.params), callerOf(req).userId) });
    })
    .get('/brands/:id/invitations', member, async (req, res) => {
      const { userId } = callerOf(req);
      res.json({ data: await listInvitations(dependencies, brandId(req.params), userId) });
    })
    .post('/brands/:id/invitations', member, async (req, res) => {
      const { userId } = callerOf(req);
      res
        .status(201)
        .json({ data: await inviteTeammate(dependencies, brandId(req.params), userId, req.body) });
    })
    .delete('/brands/:id/invitations/:invitationId', member, async (req, res) => {
      const { userId } = callerOf(req);
      const invitationId = req.params.invitationId as string;
      res.json({
        data: await cancelInvitation(dependencies, brandId(req.params), userId, invitationId),
      });
    })
    .put('/brands/:id/members/me/handle', member, async (req, res) => {
      const { userId } = callerOf(req);
      res.json({ data: await chooseHandle(dependencies, brandId(req.params), userId, req.body) });
    })
    .patch('/brands/:id/members/:userId', member, async (req, res) => {
      const { userId } = callerOf(req);
      const memberId = req.params.userId as string;
      res.json({
        data: await setMemberRole(dependencies, brandId(req.params), userId, memberId, req.body),
      });
    })
    .delete('/brands/:id/members/:userId', member, async (req, res) => {
      const { userId } = callerOf(req);
      const memberId = req.params.userId as string;
      res.json({ data: await removeMember(dependencies, brandId(req.params), userId, memberId) });
    });
}
