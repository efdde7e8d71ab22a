/** Ports and raw HTTP for tests: a free port, requests `fetch` would rewrite or refuse, multipart bodies. */
import { request } from 'node:http';
import { INTERNAL_TOKEN_HEADER } from '@raly/contracts/internal';
import { uniqueToken } from './records';

export { freePort } from '@raly/infra/test-env';

/** A JSON answer read by {@link sendRaw}. */
export interface RawAnswer<Body = unknown> {
  status: number;
  /** The parsed JSON body (undefined when empty). */
  body: Body;
}

/**
 * One HTTP request with exactly these headers and bytes: for bodies `fetch`
 * would rewrite or refuse (cut-off multipart, gzip, a wrong Content-Length).
 * @param url absolute URL, e.g. `http://127.0.0.1:4003/images/user/cover`
 * @param options method (default POST), headers, body (sent as is; the request ends after it)
 * @returns status and parsed JSON body
 * @throws Error when no answer arrives within 10 s or the connection fails
 */
export function sendRaw<Body = unknown>(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<RawAnswer<Body>> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'POST',
        headers: options.headers ?? {},
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: response.statusCode ?? 0,
            body: (text ? JSON.parse(text) : undefined) as Body,
          });
        });
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * A multipart/form-data body with one file part `file`, cut `cutBytes`
 * before its end (0 for the whole body): what a client that stops sending
 * early leaves behind.
 * @returns the body and its Content-Type header (with the boundary)
 */
export function multipartWithFile(
  file: { name: string; type: string; bytes: Buffer },
  cutBytes = 0,
): { body: Buffer; contentType: string } {
  const boundary = `raly-test-${uniqueToken(8)}`;
  const whole = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    body: whole.subarray(0, whole.length - cutBytes),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** An answer of {@link callJson}: the status, the parsed JSON body (`{}` when empty) and the headers. */
export interface JsonAnswer<Body> {
  status: number;
  body: Body;
  headers: Headers;
}

/** What {@link callJson} sends besides method and path. */
export interface JsonRequest {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is instead of `body` (malformed JSON). */
  rawBody?: string;
  /** A user's access token (`Authorization: Bearer`). */
  token?: string;
  /**
   * The calling service's access token (`x-raly-service-token`, @raly/contracts/internal), or
   * its getter (./service-tokens `serviceTokenOf`), asked right before the request.
   */
  serviceToken?: string | (() => Promise<string>);
  /** Further request headers, e.g. `x-forwarded-for` or `cookie`. */
  headers?: Record<string, string>;
}

/**
 * One JSON request over fetch to a service, the BFF or the web app's API.
 * @param baseUrl e.g. `http://127.0.0.1:41234` (the path is appended)
 * @returns status, body (`{}` when the answer is empty) and headers; never throws on a 4xx/5xx
 */
export async function callJson<Body = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  options: JsonRequest = {},
): Promise<JsonAnswer<Body>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.serviceToken)
    headers[INTERNAL_TOKEN_HEADER] =
      typeof options.serviceToken === 'string'
        ? options.serviceToken
        : await options.serviceToken();
  Object.assign(headers, options.headers);
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body:
      options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as Body,
    headers: response.headers,
  };
}

/** The `{ data }` / `{ error }` body every service and the BFF answer with (docs/api.md § Errors). */
export interface ApiBody<Data = unknown> {
  data?: Data;
  error?: { code: string; message: string; status?: string; fields?: Record<string, string> };
}

/**
 * {@link callJson} for arranging data: answers the body's `data`.
 * @throws Error naming method, path, status and body when the status is not 2xx
 */
export async function dataOf<Data>(
  baseUrl: string,
  method: string,
  path: string,
  options: JsonRequest = {},
): Promise<Data> {
  const answer = await callJson<ApiBody<Data>>(baseUrl, method, path, options);
  if (answer.status < 200 || answer.status > 299)
    throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.data as Data;
}

/** {@link callJson} typed for the `{ data }` / `{ error }` body; `Data` is the route's `data` on success. */
export const callApi = <Data = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  options: JsonRequest = {},
): Promise<JsonAnswer<ApiBody<Data>>> => callJson<ApiBody<Data>>(baseUrl, method, path, options);
