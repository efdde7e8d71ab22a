/**
 * The one-click unsubscribe of the e-mails (RFC 8058; docs/api.md
 * "services/notifications"): `POST /unsubscribe/:token`, without a bearer:
 * the token's HMAC signature names the person and the category. Its body
 * (`List-Unsubscribe=One-Click`, or nothing) is not read. Reached through the
 * BFF's `POST /api/unsubscribe/:token`.
 */
import { Router } from 'express';
import type { NotificationsDependencies } from '../domain/dependencies';
import { unsubscribe } from '../domain/unsubscribe';

/** @returns the router of `POST /unsubscribe/:token` → 200 `{ data: { category, unsubscribed: true } }`, 400 for a bad token */
export function unsubscribeRouter(dependencies: NotificationsDependencies): Router {
  return Router().post('/unsubscribe/:token', async (req, res) => {
    res.json({ data: await unsubscribe(dependencies, req.params.token) });
  });
}
