/**
 * A caller or brand whose event has not arrived: offers runs here
 * without its consumer, so every user and brand it knows it has fetched
 * itself, as the caller, from identity-profile (`GET /users/me`) and
 * services/brand (`GET /brands/:id`), and saved version-checked.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import { type RalySystem, registeredBrand } from '@raly/test-support/system';
import {
  anApplicationForm,
  anOfferForm,
  asUser,
  onboardedCreator,
  useOffersSystem,
} from './support';

const harness = useOffersSystem({ KAFKA_CONSUME: 'false' });
let system: RalySystem;

beforeAll(() => {
  system = harness.system;
});

const count = async (table: 'users' | 'brands', id: string) =>
  (
    await system.sql.offers!.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table} WHERE id = $1`,
      [id],
    )
  ).rows[0]!.n;

describe('users and brands offers has not heard of', () => {
  test('when a brand member and a creator act before their events arrive, then offers fetches them as themselves and keeps the copies', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const creator = await onboardedCreator(system, ['Fashion']);
    assert.equal(await count('users', brand.userId), 0);
    assert.equal(await count('brands', brand.brandId), 0);

    // Act
    const offer = await asUser(system, brand.accessToken)<OfferRecord>(
      'POST',
      '/offers',
      anOfferForm({ open: true }),
    );
    const application = await asUser(system, creator.accessToken)<ApplicationRecord>(
      'POST',
      `/offers/${offer.body.data?.id}/applications`,
      anApplicationForm(),
    );

    // Assert
    assert.equal(offer.status, 201);
    assert.equal(offer.body.data?.brand.company, brand.registration.company);
    assert.equal(application.status, 201);
    assert.deepEqual(application.body.data?.creator.interests, ['Fashion']);
    assert.equal(await count('users', brand.userId), 1);
    assert.equal(await count('users', creator.userId), 1);
    assert.equal(await count('brands', brand.brandId), 1);
    const { rows } = await system.sql.offers!.query(
      'SELECT brand_id, is_onboarded FROM users WHERE id = ANY($1)',
      [[brand.userId, creator.userId]],
    );
    assert.deepEqual(rows.map((row) => row.brand_id).sort(), [brand.brandId, null].sort());
  });

  test('when the copy says not onboarded but identity-profile says the creator now is, then the application goes through and the copy is renewed', async () => {
    // Arrange
    const brand = await registeredBrand(system);
    const offer = (
      await asUser(system, brand.accessToken)<OfferRecord>(
        'POST',
        '/offers',
        anOfferForm({ open: true }),
      )
    ).body.data!;
    const creator = await onboardedCreator(system);
    await asUser(system, creator.accessToken)('GET', '/offers');
    await system.sql.offers!.query(
      'UPDATE users SET is_onboarded = false, version = version - 1 WHERE id = $1',
      [creator.userId],
    );

    // Act
    const answer = await asUser(system, creator.accessToken)(
      'POST',
      `/offers/${offer.id}/applications`,
      anApplicationForm(),
    );

    // Assert
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    const { rows } = await system.sql.offers!.query(
      'SELECT is_onboarded FROM users WHERE id = $1',
      [creator.userId],
    );
    assert.equal(rows[0].is_onboarded, true);
  });

  test('when identity-profile cannot be reached for an unknown caller, then 503 with the generic message, never 500', async () => {
    // Arrange
    const creator = await onboardedCreator(system);
    await system.services.identity.stopApp();

    // Act
    const answer = await asUser(system, creator.accessToken)('GET', '/offers').finally(() =>
      system.services.identity.startApp(),
    );

    // Assert
    assert.equal(answer.status, 503);
    assert.equal(answer.body.error?.message, messages.genericProblem);
  });
});
