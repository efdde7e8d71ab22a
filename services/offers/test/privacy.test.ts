/**
 * What the offers service knows of people (the spec preamble's privacy
 * promise): the public copies of users and brands it keeps from
 * `identity.user.v1` / `brand.brand.v1` (version-checked, public fields
 * only, never a first name, last name, e-mail or phone number), and no
 * answer or event of offers ever carrying a name or e-mail of anyone.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { eventTypes, topics } from '@raly/contracts/events';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import {
  aBrandRecord,
  anEnvelope,
  aUserRecord,
  connectTestKafka,
  eventually,
  type TestKafka,
  type TopicListener,
} from '@raly/test-support';
import type { RalySystem } from '@raly/test-support/system';
import {
  anApplicationForm,
  anOfferForm,
  asUser,
  brandWithUniqueNames,
  onboardedCreator,
  useOffersSystem,
} from './support';

const harness = useOffersSystem();
let system: RalySystem;
let kafka: TestKafka;
let listeners: TopicListener[];

beforeAll(async () => {
  system = harness.system;
  kafka = await connectTestKafka(system.stack.kafkaBrokers);
  listeners = [harness.offerEvents, harness.applicationEvents];
});

afterAll(async () => {
  await kafka?.close();
});

const userRow = async (id: string) =>
  (await system.sql.offers!.query('SELECT * FROM users WHERE id = $1', [id])).rows[0];
const brandRow = async (id: string) =>
  (await system.sql.offers!.query('SELECT * FROM brands WHERE id = $1', [id])).rows[0];

describe('the copies of users and brands', () => {
  test('when the tables are read, then no column can hold a first name, last name, e-mail or phone number', async () => {
    // Act
    const { rows } = await system.sql.offers!.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name IN ('users', 'brands', 'offers', 'applications')`,
    );

    // Assert
    assert.ok(rows.length > 20);
    const forbidden = rows.filter(({ column_name }) =>
      /first|last_?name|e_?mail|phone|website/i.test(column_name),
    );
    assert.deepEqual(forbidden, []);
  });

  test('when identity.user.v1 brings snapshots out of order, then the copy keeps the newest, public fields only', async () => {
    // Arrange
    const newer = aUserRecord({
      version: 5,
      interests: ['Gaming'],
      profileImg: 'https://img.example/p.png',
      socials: { x: 'newx', instagram: 'ig', threads: 'th' },
      onboarding: { terms: true, interests: true, connects: true, wallet: true },
    });
    const older = { ...newer, version: 4, username: 'olderName', interests: ['AI' as const] };

    // Act
    await kafka.produce(topics.identityUser, newer.id, JSON.stringify(anEnvelope(newer)));
    await eventually('the user copy', () => userRow(newer.id));
    const position = await kafka.produce(
      topics.identityUser,
      older.id,
      JSON.stringify(anEnvelope(older)),
    );
    await kafka.waitUntilCommitted(
      system.services.offers!.env.KAFKA_GROUP_ID!,
      topics.identityUser,
      position,
    );

    // Assert
    const row = await userRow(newer.id);
    assert.equal(row.version, 5);
    assert.equal(row.username, newer.username);
    assert.deepEqual(row.interests, ['Gaming']);
    assert.equal(row.profile_img, 'https://img.example/p.png');
    assert.equal(row.socials_x, 'newx');
    assert.equal(row.is_onboarded, true);
    assert.equal(row.brand_id, null);
    const stored = JSON.stringify(row);
    for (const secret of [newer.firstName, newer.lastName, newer.email])
      assert.ok(!stored.includes(secret), `the copy holds ${secret}`);
  });

  test('when brand.brand.v1 brings snapshots out of order, then the copy keeps the newest summary and suspension', async () => {
    // Arrange
    const newer = aBrandRecord({
      version: 3,
      company: 'Newer Co',
      permissions: { isAgency: false, isVerified: true, isSuspended: true },
    });
    const older = { ...newer, version: 2, company: 'Older Co' };

    // Act
    await kafka.produce(
      topics.brandBrand,
      newer.id,
      JSON.stringify(anEnvelope(newer, eventTypes.brandUpdated)),
    );
    await eventually('the brand copy', () => brandRow(newer.id));
    const position = await kafka.produce(
      topics.brandBrand,
      older.id,
      JSON.stringify(anEnvelope(older, eventTypes.brandUpdated)),
    );
    await kafka.waitUntilCommitted(
      system.services.offers!.env.KAFKA_GROUP_ID!,
      topics.brandBrand,
      position,
    );

    // Assert
    const row = await brandRow(newer.id);
    assert.equal(row.version, 3);
    assert.equal(row.company, 'Newer Co');
    assert.equal(row.is_verified, true);
    assert.equal(row.is_suspended, true);
  });
});

describe('no name or e-mail leaves the offers service', () => {
  test('when brands and creators go through the whole flow, then no answer and no event of offers contains any of their names or e-mails', async () => {
    // Arrange
    const brand = await brandWithUniqueNames(system);
    const creators = await Promise.all([onboardedCreator(system), onboardedCreator(system)]);
    const answers: unknown[] = [];
    const call = async <Data>(
      token: string | undefined,
      method: string,
      path: string,
      body?: unknown,
    ) => {
      const answer = await asUser(system, token)<Data>(method, path, body);
      answers.push(answer.body);
      assert.ok(answer.status < 300, `${method} ${path}: ${JSON.stringify(answer.body)}`);
      return answer.body.data!;
    };

    // Act
    const offer = await call<OfferRecord>(
      brand.accessToken,
      'POST',
      '/offers',
      anOfferForm({ creatorsWanted: 1 }),
    );
    await call(brand.accessToken, 'PATCH', `/offers/${offer.id}`, { title: 'Edited for privacy' });
    await call(brand.accessToken, 'POST', `/offers/${offer.id}/open`);
    const applications: ApplicationRecord[] = [];
    for (const creator of creators)
      applications.push(
        await call<ApplicationRecord>(
          creator.accessToken,
          'POST',
          `/offers/${offer.id}/applications`,
          anApplicationForm(),
        ),
      );
    await call(brand.accessToken, 'POST', `/applications/${applications[0]!.id}/accept`);
    await call(creators[1]!.accessToken, 'POST', `/applications/${applications[1]!.id}/withdraw`);
    await call(brand.accessToken, 'GET', `/offers/${offer.id}/applications`);
    await call(brand.accessToken, 'GET', `/brands/${brand.brandId}/offers`);
    await call(creators[0]!.accessToken, 'GET', '/applications/mine');
    await call(creators[0]!.accessToken, 'GET', `/offers/${offer.id}`);
    await call(creators[0]!.accessToken, 'GET', '/offers');
    await call(undefined, 'GET', `/public/brands/${brand.brandId}/offers`);
    const events = await eventually('every event of the flow', () => {
      const mine = listeners
        .flatMap((listener) => listener.messages)
        .filter((message) =>
          [offer.id, ...applications.map((application) => application.id)].includes(
            message.key?.toString() ?? '',
          ),
        );
      // created, edited, opened, filled; two created, accepted, withdrawn
      return mine.length >= 8 && mine;
    });

    // Assert
    const secrets = [
      brand.registration.firstName,
      brand.registration.lastName,
      brand.registration.email,
      ...creators.map((creator) => creator.registration.email),
    ];
    const texts = [
      ...answers.map((answer) => JSON.stringify(answer)),
      ...events.map((message) => message.value?.toString() ?? ''),
    ];
    for (const secret of secrets)
      for (const text of texts)
        assert.ok(!text.toLowerCase().includes(secret.toLowerCase()), `${secret} found in ${text}`);
    const { rows } = await system.sql.offers!.query('SELECT * FROM users');
    for (const secret of secrets)
      assert.ok(!JSON.stringify(rows).toLowerCase().includes(secret.toLowerCase()));
  });
});
