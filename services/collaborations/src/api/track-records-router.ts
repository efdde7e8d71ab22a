/**
 * The public track records over HTTP (docs/api.md "services/collaborations"):
 * `GET /public/brands/:brandId/track-record` and
 * `GET /public/creators/:creatorId/track-record`, for anyone (no token read):
 * reviews received and figures computed from the collaborations.
 */
import { Router } from 'express';
import type { CollaborationsDependencies } from '../domain/dependencies';
import { brandTrackRecord, creatorTrackRecord } from '../domain/track-records';

/** @returns the router of the public track-record routes (no authentication) */
export function trackRecordsRouter(
  dependencies: Pick<CollaborationsDependencies, 'trackRecords'>,
): Router {
  return Router()
    .get('/public/brands/:brandId/track-record', async (req, res) => {
      res.json({ data: await brandTrackRecord(dependencies.trackRecords, req.params.brandId) });
    })
    .get('/public/creators/:creatorId/track-record', async (req, res) => {
      res.json({
        data: await creatorTrackRecord(dependencies.trackRecords, req.params.creatorId),
      });
    });
}
