/**
 * The staff console's brand lookup at the brand service (`GET /brands?query=`, internal, the
 * BFF only; docs/console.md): username prefix or company part, ignoring case, at most 20 by
 * username, brand fields only.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { BrandRecord } from '@raly/contracts/records';
import { callApi as call, uniqueToken } from '@raly/test-support';
import { type RalySystem, registeredBrand, startSystem } from '@raly/test-support/system';

let system: RalySystem;
const insertedIds: string[] = [];

beforeAll(async () => {
  system = await startSystem();
});

afterAll(async () => {
  if (insertedIds.length)
    await system.sql.brand.query('DELETE FROM brands WHERE id = ANY($1::uuid[])', [insertedIds]);
  await system?.stop();
});

/** GET /brands?<query> as the BFF (or as `serviceToken`'s service). */
const search = (query: string, serviceToken = system.serviceTokens.bff) =>
  call<BrandRecord[]>(system.brandUrl, 'GET', `/brands?${query}`, { serviceToken });

/** Brand rows written straight into the table (many brands without many registrations). */
async function insertBrands(rows: { username: string; company: string }[]): Promise<void> {
  for (const row of rows) {
    const id = randomUUID();
    insertedIds.push(id);
    await system.sql.brand.query(
      `INSERT INTO brands (id, username, company, website_url, creator_user_id, updated_at)
       VALUES ($1, $2, $3, 'https://search.example', $4, now())`,
      [id, row.username, row.company, `search-${id}`],
    );
  }
}

describe('brand lookup for the console', () => {
  test('when the query is the start of a username or a part of a company in another case, then the brand is found with brand fields only', async () => {
    // Arrange
    const brand = await registeredBrand(system, { company: `Northwind ${uniqueToken(8)}` });
    const { username, company } = brand.registration;

    // Act
    const byUsername = await search(
      new URLSearchParams({ query: username.slice(0, -2).toUpperCase() }).toString(),
    );
    const byCompany = await search(
      new URLSearchParams({ query: ` ${company.slice(2).toLowerCase()} ` }).toString(),
    );
    const byUsernameMiddle = await search(
      new URLSearchParams({ query: username.slice(1) }).toString(),
    );

    // Assert
    assert.equal(byUsername.status, 200, JSON.stringify(byUsername.body));
    assert.deepEqual(
      byUsername.body.data?.map((found) => found.id),
      [brand.brandId],
    );
    assert.equal(byCompany.status, 200);
    assert.deepEqual(
      byCompany.body.data?.map((found) => found.username),
      [username],
    );
    // A username is matched from its start only.
    assert.deepEqual(byUsernameMiddle.body.data, []);
    const text = JSON.stringify(byCompany.body);
    for (const contact of [
      brand.registration.email,
      brand.registration.firstName,
      brand.registration.lastName,
    ])
      assert.equal(text.includes(contact), false, `${contact} in ${text}`);
  });

  test('when more than 20 brands match, then the first 20 by username are answered', async () => {
    // Arrange
    const marker = uniqueToken(10);
    const usernames = Array.from(
      { length: 22 },
      (_unused, index) => `s${marker}${String(index).padStart(2, '0')}`,
    );
    await insertBrands(
      [...usernames].reverse().map((name) => ({ username: name, company: `Store ${marker}` })),
    );

    // Act
    const answer = await search(`query=${marker}`);

    // Assert
    assert.equal(answer.status, 200);
    assert.deepEqual(
      answer.body.data?.map((found) => found.username),
      usernames.slice(0, 20),
    );
  });

  test("when the query holds '%' or '_', then they match themselves only", async () => {
    // Arrange
    const marker = uniqueToken(10);
    await insertBrands([
      { username: `p${marker}a`, company: `Half 50% off ${marker}` },
      { username: `p${marker}b`, company: `Half 500 off ${marker}` },
    ]);

    // Act
    const percent = await search(new URLSearchParams({ query: `50% off ${marker}` }).toString());
    const underscore = await search(new URLSearchParams({ query: `50_ off ${marker}` }).toString());

    // Assert
    assert.deepEqual(
      percent.body.data?.map((found) => found.username),
      [`p${marker}a`],
    );
    assert.deepEqual(underscore.body.data, []);
  });

  test('when the query is missing, blank, over 100 characters or repeated, then the answer is 400', async () => {
    // Act
    const answers = await Promise.all([
      search(''),
      search('query=%20%20'),
      search(`query=${'a'.repeat(101)}`),
      search('query=acme&query=other'),
    ]);

    // Assert
    assert.deepEqual(
      answers.map((answer) => [answer.status, answer.body.error?.code]),
      Array.from({ length: 4 }, () => [400, 'invalid-argument']),
    );
  });

  test("when the call has no service token or another service's, then it is refused (401, 403)", async () => {
    // Act
    const anonymous = await call(system.brandUrl, 'GET', '/brands?query=acme');
    const media = await search('query=acme', system.serviceTokens.media);

    // Assert
    assert.equal(anonymous.status, 401);
    assert.equal(media.status, 403);
    assert.equal(media.body.error?.code, 'permission-denied');
  });
});
