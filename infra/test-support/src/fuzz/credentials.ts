/** The credentials every fuzz draws from, right and wrong. */
import { createHmac } from 'node:crypto';
import { INTERNAL_TOKEN_HEADER } from '@raly/contracts/internal';
import type { FuzzCredential } from './types';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The credentials every fuzz draws from: none, garbage, forged (alg none,
 * HS256 with a guessed key, a tampered signature), an ID token, the users'
 * access tokens, and each calling service's token right, tampered and misplaced.
 * @param tokens.users access tokens by label (the first is used for the forged ones)
 * @param tokens.idToken an ID token of a real user (never an access token)
 * @param tokens.serviceTokens access tokens of calling services by caller (e.g. `{ bff: … }`),
 *   for apps with internal routes (a route takes those its `callers` name)
 */
export function fuzzCredentials(tokens: {
  users: Record<string, string>;
  idToken: string;
  serviceTokens?: Record<string, string>;
}): FuzzCredential[] {
  const [firstLabel, first] = Object.entries(tokens.users)[0] ?? ['user', 'x.e30.x'];
  const claims = JSON.parse(
    Buffer.from(first.split('.')[1] ?? '', 'base64url').toString() || '{}',
  ) as object;
  const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}`;
  const hsInput = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}`;
  const hs256 = `${hsInput}.${createHmac('sha256', 'secret').update(hsInput).digest('base64url')}`;
  const tampered = `${first.slice(0, -6)}${first.slice(-6) === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA'}`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const credentials: FuzzCredential[] = [
    { label: 'no credentials', headers: {} },
    { label: 'garbage bearer', headers: bearer('not-a-token') },
    { label: 'empty bearer', headers: { authorization: 'Bearer ' } },
    { label: 'basic auth', headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } },
    { label: 'forged token (alg none)', headers: bearer(`${unsigned}.`) },
    { label: 'forged token (HS256, guessed key)', headers: bearer(hs256) },
    { label: `${firstLabel} token with a tampered signature`, headers: bearer(tampered) },
    { label: '6 KB bearer', headers: bearer('a'.repeat(6_000)) },
    { label: 'ID token', headers: bearer(tokens.idToken) },
    ...Object.entries(tokens.users).map(([label, token]) => ({
      label: `${label} access token`,
      headers: bearer(token),
      user: true,
    })),
  ];
  const services = Object.entries(tokens.serviceTokens ?? {});
  for (const [caller, token] of services)
    credentials.push(
      {
        label: `${caller} service token`,
        headers: { [INTERNAL_TOKEN_HEADER]: token },
        service: caller,
      },
      {
        label: `${caller} service token + ${firstLabel} access token`,
        headers: { [INTERNAL_TOKEN_HEADER]: token, ...bearer(first) },
        user: true,
        service: caller,
      },
    );
  const [firstService] = services;
  if (firstService) {
    const [caller, token] = firstService;
    const tamperedService = `${token.slice(0, -6)}${token.slice(-6) === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA'}`;
    credentials.push(
      {
        label: `${caller} service token with a tampered signature`,
        headers: { [INTERNAL_TOKEN_HEADER]: tamperedService },
      },
      { label: 'garbage service token', headers: { [INTERNAL_TOKEN_HEADER]: 'not-a-token' } },
      { label: 'access token as service token', headers: { [INTERNAL_TOKEN_HEADER]: first } },
      { label: `${caller} service token as bearer`, headers: bearer(token) },
    );
  }
  return credentials;
}
