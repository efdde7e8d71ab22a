import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { UserRecord } from '@raly/contracts/records';
import { keycloakUsers } from '../src/data-access/keycloak-users';
import {
  brandRegistration,
  callApi as call,
  creatorRegistration,
  eventually,
  passwordGrant,
  uniqueToken,
} from '@raly/test-support';
import { type RalySystem, startSystem } from '@raly/test-support/system';

let system: RalySystem;
let keycloak: ReturnType<typeof keycloakUsers>;

beforeAll(async () => {
  system = await startSystem();
  keycloak = keycloakUsers({
    url: system.stack.keycloakUrl,
    realm: system.stack.realm,
    clientId: 'raly-identity',
    clientSecret: system.stack.identityClientSecret,
  });
});

afterAll(async () => {
  await system.stop();
});

const register = (registration: object) =>
  call<{ userId: string }>(system.identityUrl, 'POST', '/accounts', {
    serviceToken: system.serviceToken,
    body: { isBrand: true, registration },
  });

/** Makes a test database refuse inserts into `table` of rows whose `column` is `value`. */
async function refuseInserts(
  pool: typeof system.sql.brand,
  table: string,
  column: string,
  value: string,
): Promise<void> {
  const name = `refuse_${uniqueToken(10)}`;
  await pool.query(`
    CREATE FUNCTION ${name}() RETURNS trigger AS $$
    BEGIN RAISE EXCEPTION 'refused by test'; END $$ LANGUAGE plpgsql;
    CREATE TRIGGER ${name} BEFORE INSERT ON ${table}
      FOR EACH ROW WHEN (NEW.${column} = '${value}') EXECUTE FUNCTION ${name}();`);
}

async function brandRowsNamed(username: string) {
  const { rows } = await system.sql.brand.query('SELECT * FROM brands WHERE username = $1', [
    username,
  ]);
  return rows;
}

describe('POST /accounts with isBrand true', () => {
  test('when a brand registers, then Keycloak holds the login, the brand exists with its admin, and the brand-side user record links them', async () => {
    // Arrange
    const registration = brandRegistration({ username: `Brand${uniqueToken(8)}` });

    // Act
    const answer = await register(registration);

    // Assert
    assert.equal(answer.status, 201);
    const userId = answer.body.data?.userId ?? '';
    assert.equal(await keycloak.findIdByEmail(registration.email), userId);
    const [brand] = await brandRowsNamed(registration.username.toLowerCase());
    assert.equal(brand.company, registration.company);
    assert.equal(brand.website_url, registration.website);
    assert.deepEqual(
      [brand.is_agency, brand.is_verified, brand.is_suspended],
      [false, false, false],
    );
    const { rows: members } = await system.sql.brand.query(
      'SELECT user_id, is_admin FROM brand_members WHERE brand_id = $1',
      [brand.id],
    );
    assert.deepEqual(members, [{ user_id: userId, is_admin: true }]);
    const tokens = await passwordGrant(system.stack, registration.email, registration.password);
    const me = await call<UserRecord>(system.identityUrl, 'GET', '/users/me', {
      token: tokens.access_token,
    });
    assert.equal(me.status, 200);
    assert.deepEqual(
      {
        username: me.body.data?.username,
        firstName: me.body.data?.firstName,
        lastName: me.body.data?.lastName,
        notifications: me.body.data?.notifications,
        brand: me.body.data?.brand,
        onboarding: me.body.data?.onboarding,
      },
      {
        username: null,
        firstName: registration.firstName,
        lastName: registration.lastName,
        notifications: { offers: false, marketing: true },
        brand: { id: brand.id, isAdmin: true },
        onboarding: { terms: false, brand: false },
      },
    );
  });

  test("when a brand's username belongs to a creator, then registration answers 409 'Username already exists. Try another.' and leaves nothing behind", async () => {
    // Arrange
    const creator = creatorRegistration();
    await call(system.identityUrl, 'POST', '/accounts', {
      serviceToken: system.serviceToken,
      body: { isBrand: false, registration: creator },
    });
    const registration = brandRegistration({ username: creator.username });

    // Act
    const answer = await register(registration);

    // Assert
    assert.equal(answer.status, 409);
    assert.deepEqual(answer.body.error, {
      code: 'username-taken',
      message: messages.usernameExists,
    });
    assert.equal(await keycloak.findIdByEmail(registration.email), null);
    assert.equal((await brandRowsNamed(creator.username)).length, 0);
  });

  test("when a creator takes a brand's username, then registration answers 409 'Username already exists. Try another.'", async () => {
    // Arrange
    const brand = brandRegistration();
    await register(brand);
    const creator = creatorRegistration({ username: brand.username.toUpperCase() });

    // Act
    const answer = await call(system.identityUrl, 'POST', '/accounts', {
      serviceToken: system.serviceToken,
      body: { isBrand: false, registration: creator },
    });

    // Assert
    assert.equal(answer.status, 409);
    assert.deepEqual(answer.body.error, {
      code: 'username-taken',
      message: messages.usernameExists,
    });
    const taken = await call(system.identityUrl, 'POST', '/queries/check-username-exists', {
      serviceToken: system.serviceToken,
      body: { username: brand.username },
    });
    assert.equal(taken.body.data, true);
  });

  test('when 10 brands and 10 creators race for one username, then exactly one registration succeeds and the others get 409', async () => {
    // Arrange
    const username = `race${uniqueToken(8)}`;
    const attempts = [
      ...Array.from({ length: 10 }, () => ({
        isBrand: true,
        registration: brandRegistration({ username }),
      })),
      ...Array.from({ length: 10 }, () => ({
        isBrand: false,
        registration: creatorRegistration({ username }),
      })),
    ];

    // Act
    const answers = await Promise.all(
      attempts.map((body) =>
        call(system.identityUrl, 'POST', '/accounts', { body, serviceToken: system.serviceToken }),
      ),
    );

    // Assert
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [201, ...Array(19).fill(409)]);
    for (const answer of answers.filter((a) => a.status === 409)) {
      assert.equal(answer.body.error?.message, messages.usernameExists);
    }
    const { rows: claims } = await system.sql.identity.query(
      'SELECT * FROM usernames WHERE username = $1',
      [username],
    );
    assert.equal(claims.length, 1);
    const { rows: brands } = await system.sql.brand.query(
      'SELECT count(*)::int AS n FROM brands WHERE username = $1',
      [username],
    );
    assert.equal(brands[0].n, claims[0].owner_type === 'brand' ? 1 : 0);
  });

  test('when saving the user record fails, then the brand and the Keycloak user are deleted and the answer is the create-account message', async () => {
    // Arrange
    const lastName = `Refused${uniqueToken(8)}`;
    await refuseInserts(system.sql.identity, 'users', 'last_name', lastName);
    const registration = brandRegistration({ lastName });

    // Act
    const answer = await register(registration);

    // Assert
    assert.equal(answer.status, 500);
    assert.deepEqual(answer.body.error, {
      code: 'internal',
      message: messages.createAccountFailed,
    });
    assert.equal(await keycloak.findIdByEmail(registration.email), null);
    assert.equal((await brandRowsNamed(registration.username)).length, 0);
    const { rows } = await system.sql.identity.query(
      'SELECT count(*)::int AS n FROM users WHERE email = $1',
      [registration.email],
    );
    assert.equal(rows[0].n, 0);
  });

  test('when the brand database ends the connection that saves the brand, then the answer is 503 with the create-account message and no Keycloak user and no user record remain', async () => {
    // Arrange: a lock on the brands table makes the brand service's insert wait in its transaction.
    const registration = brandRegistration();
    const locker = await system.sql.brand.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE brands IN SHARE MODE');
      const registering = register(registration);

      // Act: as `npm run chaos` does, end the connection the brand service is saving with.
      await eventually('the brand insert waits for the lock', async () => {
        const { rowCount } = await system.sql.brand.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND query LIKE 'INSERT%brands%'`,
        );
        return rowCount !== null && rowCount > 0;
      });
      const answer = await registering;

      // Assert
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.error, {
        code: 'unavailable',
        message: messages.createAccountFailed,
      });
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    assert.equal(await keycloak.findIdByEmail(registration.email), null);
    assert.equal((await brandRowsNamed(registration.username.toLowerCase())).length, 0);
    const { rows } = await system.sql.identity.query(
      'SELECT count(*)::int AS n FROM users WHERE email = $1',
      [registration.email],
    );
    assert.equal(rows[0].n, 0);
  });

  test('when the brand service refuses the brand, then no Keycloak user and no user record remain', async () => {
    // Arrange: the brand database refuses this company
    const company = `Refused ${uniqueToken(8)}`;
    await refuseInserts(system.sql.brand, 'brands', 'company', company);
    const registration = brandRegistration({ company });

    // Act
    const answer = await register(registration);

    // Assert
    assert.equal(answer.status, 500);
    assert.deepEqual(answer.body.error, {
      code: 'internal',
      message: messages.createAccountFailed,
    });
    assert.equal(await keycloak.findIdByEmail(registration.email), null);
    const { rows } = await system.sql.identity.query(
      'SELECT count(*)::int AS n FROM users WHERE email = $1',
      [registration.email],
    );
    assert.equal(rows[0].n, 0);
  });

  test('when the brand service is down, then registration answers the create-account message with a 503 and leaves no Keycloak user or user record', async () => {
    // Arrange
    await system.services.brand.stopApp();
    const registration = brandRegistration();

    try {
      // Act
      const answer = await register(registration);

      // Assert
      // The spec's create-account message; 503: a service away is worth trying again.
      assert.equal(answer.status, 503);
      assert.deepEqual(answer.body.error, {
        code: 'unavailable',
        message: messages.createAccountFailed,
      });
      assert.equal(await keycloak.findIdByEmail(registration.email), null);
      const { rows } = await system.sql.identity.query(
        'SELECT count(*)::int AS n FROM users WHERE email = $1',
        [registration.email],
      );
      assert.equal(rows[0].n, 0);
    } finally {
      await system.services.brand.startApp();
    }
  });
});

describe('POST /usernames/claim and /usernames/release (internal)', () => {
  const claim = (
    body: object,
    serviceToken: string | (() => Promise<string>) = system.serviceTokens.brand,
  ) => call(system.identityUrl, 'POST', '/usernames/claim', { body, serviceToken });

  test('when the service token is missing or wrong, then the registry answers 401 and claims nothing', async () => {
    // Arrange
    const body = { username: `n${uniqueToken(8)}`, ownerType: 'brand', ownerId: uniqueToken() };

    // Act
    const [missing, wrong] = await Promise.all([
      call(system.identityUrl, 'POST', '/usernames/claim', { body }),
      claim(body, 'not-the-token-at-all'),
    ]);

    // Assert
    assert.deepEqual([missing.status, wrong.status], [401, 401]);
    const { rows } = await system.sql.identity.query(
      'SELECT * FROM usernames WHERE username = $1',
      [body.username],
    );
    assert.equal(rows.length, 0);
  });

  test("when a creator holds the username, then a brand's claim answers 409 'Username already exists. Try another.'", async () => {
    // Arrange
    const creator = creatorRegistration();
    await call(system.identityUrl, 'POST', '/accounts', {
      serviceToken: system.serviceToken,
      body: { isBrand: false, registration: creator },
    });

    // Act
    const answer = await claim({
      username: creator.username,
      ownerType: 'brand',
      ownerId: uniqueToken(),
    });

    // Assert
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error?.message, messages.usernameExists);
  });

  test('when 20 brands claim one username at once, then exactly one wins; after its release another may claim it', async () => {
    // Arrange
    const username = `claim${uniqueToken(8)}`;
    const owners = Array.from({ length: 20 }, () => uniqueToken(12));

    // Act
    const answers = await Promise.all(
      owners.map((ownerId) => claim({ username, ownerType: 'brand', ownerId })),
    );

    // Assert
    assert.equal(answers.filter((answer) => answer.status === 200).length, 1);
    assert.equal(answers.filter((answer) => answer.status === 409).length, 19);
    const winner = owners[answers.findIndex((answer) => answer.status === 200)]!;
    assert.equal(
      (await claim({ username, ownerType: 'brand', ownerId: winner })).status,
      200,
      'claiming again is fine',
    );
    await call(system.identityUrl, 'POST', '/usernames/release', {
      body: { username, ownerType: 'brand', ownerId: winner },
      serviceToken: system.serviceTokens.brand,
    });
    assert.equal(
      (
        await claim({
          username,
          ownerType: 'brand',
          ownerId: owners[0] === winner ? owners[1] : owners[0],
        })
      ).status,
      200,
    );
  });

  test('when a claimed username breaks the username rules, then the registry answers 400 with the rule', async () => {
    // Act
    const answer = await claim({ username: 'a!', ownerType: 'brand', ownerId: uniqueToken() });

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.message, messages.usernameTooShort);
  });
});
