/**
 * Passes an image upload through to services/media as it streams in: the
 * browser's multipart body is piped, never buffered, so media's 5 MB limit
 * (enforced while streaming) holds end to end. Media's answer, including an
 * early 413, is relayed unchanged. The request's trace goes along in
 * `traceparent` (media's server span is the child of the BFF's). Reads of
 * images media serves only to some users (a submission's image) are relayed
 * the same way, with the user's token.
 */
import { request } from 'node:http';
import type { Request, Response } from 'express';
import { traceHeaders } from '@raly/service-kit/tracing';
import type { Config } from '../config';
import { bffErrors } from '../domain/errors';
import { timeUpstreamCall } from '@raly/service-kit/metrics';

export interface MediaUpload {
  /**
   * Pipes `req` to media's `POST <path>` with the user's token and relays the answer into `res`.
   * @param path e.g. `/images/brand/cover?ownerId=<brandId>`
   * @returns once the answer has been relayed
   * @throws AppError 'Hmm, there was a problem. Try again.' when media cannot be reached (before any answer)
   */
  forward(req: Request, res: Response, path: string, accessToken: string): Promise<void>;
  /**
   * Relays media's answer to `GET <path>` with the user's token into `res` (bytes and the
   * headers of {@link READ_HEADERS}, or media's error).
   * @param path e.g. `/collaborations/<id>/deliverable-images/<imageId>`
   * @returns once the answer has been relayed
   * @throws AppError 'Hmm, there was a problem. Try again.' when media cannot be reached (before any answer)
   */
  relayRead(res: Response, path: string, accessToken: string): Promise<void>;
}

/** What an image read relays besides the body: its type, size, caching and safety headers. */
const READ_HEADERS = [
  'content-type',
  'content-length',
  'cache-control',
  'x-content-type-options',
  'content-security-policy',
];

/** Hop-by-hop and framing headers are not relayed; the rest of media's answer is. */
const RELAYED_HEADERS = ['content-type', 'content-length'];

/** @param config MEDIA_URL */
export function createMediaUpload(config: Config): MediaUpload {
  const target = new URL(config.MEDIA_URL);
  return {
    forward(req, res, path, accessToken) {
      return timeUpstreamCall('media', 'POST', () => relay(req, res, path, accessToken)).then(
        () => undefined,
      );
    },
    relayRead(res, path, accessToken) {
      return timeUpstreamCall('media', 'GET', () => read(res, path, accessToken)).then(
        () => undefined,
      );
    },
  };

  /** @returns media's status once its answer has been relayed */
  function read(res: Response, path: string, accessToken: string) {
    return new Promise<{ status: number }>((resolve, reject) => {
      const headers = { authorization: `Bearer ${accessToken}`, ...traceHeaders() };
      const upstream = request(
        { host: target.hostname, port: target.port, path, method: 'GET', headers },
        (answer) => {
          res.status(answer.statusCode ?? 502);
          for (const name of READ_HEADERS) {
            const value = answer.headers[name];
            if (value !== undefined) res.setHeader(name, value);
          }
          answer.pipe(res);
          answer.on('end', () => resolve({ status: answer.statusCode ?? 502 }));
          answer.on('error', () => res.destroy());
        },
      );
      upstream.on('error', (error) => {
        if (!res.headersSent) reject(bffErrors.uploadFailed(error));
        else if (!res.writableFinished) res.destroy();
      });
      upstream.end();
    });
  }

  /** @returns media's status once its answer has been relayed */
  function relay(req: Request, res: Response, path: string, accessToken: string) {
    return new Promise<{ status: number }>((resolve, reject) => {
      const headers: Record<string, string> = {
        authorization: `Bearer ${accessToken}`,
        ...traceHeaders(),
      };
      for (const name of ['content-type', 'content-length', 'transfer-encoding']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const upstream = request(
        { host: target.hostname, port: target.port, path, method: 'POST', headers },
        (answer) => {
          res.status(answer.statusCode ?? 502);
          // Answered before the browser finished sending (an early 413): this connection cannot be reused.
          if (!req.complete) res.setHeader('connection', 'close');
          for (const name of RELAYED_HEADERS) {
            const value = answer.headers[name];
            if (value !== undefined) res.setHeader(name, value);
          }
          answer.pipe(res);
          answer.on('end', () => resolve({ status: answer.statusCode ?? 502 }));
          answer.on('error', () => res.destroy());
        },
      );
      upstream.on('error', (error) => {
        // Media may close its side after answering early (413) while the browser still sends: discard the rest.
        req.unpipe(upstream);
        req.resume();
        if (!res.headersSent) reject(bffErrors.uploadFailed(error));
        else if (!res.writableFinished) res.destroy();
      });
      req.pipe(upstream);
    });
  }
}
