/**
 * Sign-in latency: the BFF's POST /api/auth/login against Keycloak's own
 * password grant of the BFF's confidential sign-in client `raly-bff-login`
 * with its secret (exactly what the BFF calls, docs/adr/0009), alternating
 * one of each so both meet the same conditions.
 */
import { passwordGrant, type TestStack } from '@raly/test-support';
import { nowMs, percentile } from '../stats';
import type { BenchUser } from '../users';

export interface LoginResult {
  bffMedianMs: number;
  keycloakMedianMs: number;
  ratio: number;
  rounds: number;
}

export async function measureLogin(
  stack: TestStack,
  bffUrl: string,
  user: BenchUser,
  rounds: number,
): Promise<LoginResult> {
  const bff: number[] = [];
  const keycloak: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    let started = nowMs();
    const answer = await fetch(`${bffUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`BFF login answered ${answer.status}`);
    bff.push(nowMs() - started);
    started = nowMs();
    await passwordGrant(stack, user.email, user.password);
    keycloak.push(nowMs() - started);
  }
  const bffMedianMs = percentile(bff, 50);
  const keycloakMedianMs = percentile(keycloak, 50);
  return { bffMedianMs, keycloakMedianMs, ratio: bffMedianMs / keycloakMedianMs, rounds };
}
