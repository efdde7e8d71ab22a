/**
 * JSON over HTTP to Keycloak and the services, with a timeout. Answers are
 * returned whatever their status; callers decide what a status means.
 */
import { failures } from '../errors/failures';

export interface UpstreamAnswer {
  status: number;
  /** Parsed JSON body, or undefined when the body was empty or not JSON. */
  body: unknown;
}

export interface UpstreamRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  /** JSON body (sent as application/json) or form fields (sent url-encoded). */
  json?: unknown;
  form?: Record<string, string>;
  bearer?: string;
  /** Further request headers, e.g. the service token of internal endpoints. */
  headers?: Record<string, string>;
  timeoutMs: number;
}

/**
 * Calls an upstream endpoint.
 * @param url absolute URL
 * @returns status and parsed body
 * @throws AppError `unavailable` (503) when the upstream cannot be reached or times out
 */
export async function callUpstream(url: string, request: UpstreamRequest): Promise<UpstreamAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | undefined;
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  }
  if (request.bearer) headers.authorization = `Bearer ${request.bearer}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method,
      headers,
      body,
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch (error) {
    throw failures.upstreamUnavailable(new URL(url).host, error);
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed };
}

/** The `data` field of a `{ data }` answer. */
export const dataOf = <T>(answer: UpstreamAnswer): T => (answer.body as { data: T }).data;
