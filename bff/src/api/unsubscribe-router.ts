/**
 * The e-mails' unsubscribe link (docs/api.md "Unsubscribe"), public: the
 * signed token in the path is the authority, no sign-in.
 *
 * - `POST /api/unsubscribe/:token`: RFC 8058 one-click. A mail client posts
 *   `List-Unsubscribe=One-Click` form-encoded (or nothing): the body is not
 *   read. Rate-limited per client address. Answers JSON
 *   `{ data: { category, unsubscribed: true } }`, or, to a browser's form
 *   (it accepts HTML before JSON), a confirmation page.
 * - `GET /api/unsubscribe/:token`: a page with a button that POSTs. A GET
 *   never unsubscribes by itself: link scanners and previews fetch links.
 *
 * No CSRF defence is involved: nothing in the BFF is authorised by a cookie
 * (docs/adr/0002). The pages load nothing, are never cached and send no
 * referrer (the token is in their address).
 */
import type { Response } from 'express';
import { Router } from 'express';
import { AppError } from '@raly/service-kit/errors';
import { unsubscribe, type NotificationsDependencies } from '../domain/notifications';
import type { RateLimits } from './rate-limit';

/** The pages' headers: no script, no remote anything, posts to this origin only. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex',
};

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );

/** Sends a small HTML page: a title, a paragraph and, optionally, a form's button. */
function sendPage(
  response: Response,
  status: number,
  page: { title: string; text: string; button?: string },
): void {
  const form = page.button
    ? `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${escapeHtml(page.button)}</button></form>`
    : '';
  response
    .status(status)
    .set(PAGE_HEADERS)
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(page.title)} · Raly</title><style>body{font-family:Helvetica,Arial,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}button{font:inherit;padding:.6rem 1.2rem;cursor:pointer}</style></head><body><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.text)}</p>${form}</body></html>`,
    );
}

/**
 * Mounted at `/unsubscribe`.
 * @param dependencies the notifications service's client
 * @param limits the per-address budget of the POST
 */
export function unsubscribeRouter(
  dependencies: Pick<NotificationsDependencies, 'notifications'>,
  limits: Pick<RateLimits, 'unsubscribe'>,
): Router {
  return Router()
    .get('/:token', (_request, response) => {
      sendPage(response, 200, {
        title: 'Stop digest e-mails',
        text: 'Raly e-mails you a digest of your unread notifications while you are away. Stop these e-mails?',
        button: 'Stop these e-mails',
      });
    })
    .post('/:token', limits.unsubscribe, async (request, response) => {
      const wantsPage = request.accepts(['json', 'html']) === 'html';
      const token = request.params.token as string;
      try {
        const data = await unsubscribe(dependencies, token);
        if (!wantsPage) {
          response.json({ data });
          return;
        }
        sendPage(response, 200, {
          title: 'You are unsubscribed',
          text: 'Raly will not e-mail you digests of your notifications any more. You still find them in the app.',
        });
      } catch (error) {
        if (!wantsPage || !(error instanceof AppError) || error.httpStatus >= 500) throw error;
        sendPage(response, error.httpStatus, { title: 'Link not valid', text: error.message });
      }
    });
}
