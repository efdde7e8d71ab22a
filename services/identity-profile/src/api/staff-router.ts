/**
 * Staff decisions from the console (docs/console.md, docs/api.md "Internal endpoints"): the BFF
 * only, with its service token. `GET /creators?query=` (the console's creator lookup),
 * `PUT /users/:id/suspension`, `PUT /users/:id/flags`, `POST /sessions/end`, and the contact views
 * `POST /users/:id/contact-view`, `POST /brands/:brandId/contact-view` (each an audit entry).
 */
import { Router, type RequestHandler } from 'express';
import { viewBrandContacts, viewCreatorContact } from '../domain/contact-views';
import { searchCreators } from '../domain/creator-search';
import type { IdentityDependencies } from '../domain/dependencies';
import {
  decideCreatorSuspension,
  endUsersSessions,
  setCreatorFlags,
} from '../domain/staff-decisions';

/** @param fromBff the guard letting only the BFF through (kit `requireServiceCaller`) */
export function staffRouter(dependencies: IdentityDependencies, fromBff: RequestHandler): Router {
  return Router()
    .get('/creators', fromBff, async (req, res) => {
      res.json({ data: await searchCreators(dependencies, req.query) });
    })
    .put('/users/:id/suspension', fromBff, async (req, res) => {
      res.json({
        data: await decideCreatorSuspension(dependencies, req.params.id as string, req.body),
      });
    })
    .put('/users/:id/flags', fromBff, async (req, res) => {
      res.json({ data: await setCreatorFlags(dependencies, req.params.id as string, req.body) });
    })
    .post('/users/:id/contact-view', fromBff, async (req, res) => {
      res.json({
        data: await viewCreatorContact(dependencies, req.params.id as string, req.body),
      });
    })
    .post('/brands/:brandId/contact-view', fromBff, async (req, res) => {
      res.json({
        data: await viewBrandContacts(dependencies, req.params.brandId as string, req.body),
      });
    })
    .post('/sessions/end', fromBff, async (req, res) => {
      res.json({ data: await endUsersSessions(dependencies, req.body) });
    });
}
