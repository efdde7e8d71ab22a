/**
 * Public profiles (docs/api.md "Public profiles"), mounted at
 * `/public`: `GET /users/:username` (a creator) and `GET /brands/:username`
 * (a brand and its open offers). Anyone, signed in or not; no token is read.
 */
import { Router } from 'express';
import {
  getPublicBrandProfile,
  getPublicCreator,
  type PublicProfileDependencies,
} from '../domain/public-profiles';

/** @returns the router mounted at `/public` (no authentication) */
export function publicProfilesRouter(dependencies: PublicProfileDependencies): Router {
  return Router()
    .get('/users/:username', async (request, response) => {
      response.json({ data: await getPublicCreator(dependencies, request.params.username) });
    })
    .get('/brands/:username', async (request, response) => {
      response.json({ data: await getPublicBrandProfile(dependencies, request.params.username) });
    });
}
