/** The live figure's helpers: the hop-by-hop breakdown, per-update deltas and the BFF's V8 options. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'vitest';
import {
  benchBffEnvironment,
  imageNodeOptions,
  nodeOptionsFor,
  repositoryRoot,
} from '../src/bench-system';
import { onThePath } from '../src/figures/live-latency';
import { liveBreakdown } from '../src/figures/live-breakdown';
import { perUpdate } from '../src/stats';
import type { ZipkinSpan } from '../src/trace-collector';

/** A span of `service` from `startMs` to `endMs` (epoch ms), Zipkin's µs. */
const span = (
  service: string,
  name: string,
  startMs: number,
  endMs: number,
  kind?: ZipkinSpan['kind'],
): ZipkinSpan => ({
  traceId: 't1',
  id: `${service}-${name}`,
  name,
  kind,
  timestamp: startMs * 1000,
  duration: (endMs - startMs) * 1000,
  localEndpoint: { serviceName: service },
});

describe('live figure helpers', () => {
  test('when an update is traced through the BFF and identity-profile, then each hop is the gap between its spans and the tabs add their own', () => {
    // Arrange: sent at 1000, BFF 1002–1020, its call 1004–1014, identity 1005–1012, emit 1016–1017
    const spans = [
      span('bff', 'PATCH /api/me', 1002, 1020, 'SERVER'),
      span('bff', 'PATCH', 1004, 1014, 'CLIENT'),
      span('identity-profile', 'PATCH /users/me', 1005, 1012, 'SERVER'),
      span('bff', 'socket emit user', 1016, 1017),
    ];
    const update = { value: '+1', traceId: 't1', sentAt: 1000, answeredAt: 1021 };

    // Act
    const breakdown = liveBreakdown(
      [update],
      spans,
      [
        ['+1', 1019],
        ['+1', 1023],
      ],
      'bff',
    );

    // Assert
    const hop = (name: string) => breakdown.hops.find((row) => row.hop.startsWith(name))!.max;
    assert.equal(breakdown.updatesTraced, 1);
    assert.equal(breakdown.arrivalsTraced, 2);
    assert.equal(hop('bench send → BFF'), 2);
    assert.equal(hop('BFF before its call'), 2);
    assert.equal(hop('BFF call → identity'), 1);
    assert.equal(hop('identity-profile handles'), 7);
    assert.equal(hop('identity answered → BFF call returns'), 2);
    assert.equal(hop('BFF call returned → emit'), 2);
    assert.equal(hop('socket emit span'), 1);
    assert.equal(hop('emit ends → first tab'), 2);
    assert.equal(hop('first tab → this tab'), 4);
    assert.equal(hop('end to end'), 23);
  });

  test('when a span of the update is missing, then the update is left out rather than guessed', () => {
    const breakdown = liveBreakdown(
      [{ value: '+1', traceId: 't1', sentAt: 1000 }],
      [span('bff', 'PATCH /api/me', 1002, 1020, 'SERVER')],
      [['+1', 1019]],
      'bff',
    );
    assert.equal(breakdown.updatesTraced, 0);
  });

  test('when counters grow over some updates, then each growth per update is kept from the threshold up, largest first', () => {
    assert.deepEqual(perUpdate({ a: 10, b: 5 }, { a: 30, b: 6, c: 4 }, 10, 0.2), { a: 2, c: 0.4 });
  });

  test("when BENCH_BFF_NODE_ARGS is set, then only the BFF gets those V8 options, after its image's", () => {
    const env = { BENCH_BFF_NODE_ARGS: '--max-semi-space-size=32  --trace-gc' };
    const image = imageNodeOptions(
      readFileSync(path.join(repositoryRoot, 'bff', 'Dockerfile'), 'utf8'),
    );
    assert.ok(image.length > 0, 'bff/Dockerfile sets NODE_OPTIONS');
    assert.deepEqual(nodeOptionsFor('bff/dist/main.js', env), [
      ...image,
      '--max-semi-space-size=32',
      '--trace-gc',
    ]);
    assert.deepEqual(nodeOptionsFor('services/identity-profile/dist/main.js', env), []);
  });

  test('when BENCH_CPU_PROF is set, then every app writes a CPU profile named after it there', () => {
    const env = { BENCH_CPU_PROF: '/tmp/profiles' };
    for (const app of ['identity-profile', 'offers', 'notifications']) {
      const options = nodeOptionsFor(`services/${app}/dist/main.js`, env);
      assert.deepEqual(options.slice(0, 2), ['--cpu-prof', '--cpu-prof-dir=/tmp/profiles']);
      assert.match(options[2]!, new RegExp(`^--cpu-prof-name=${app}-\\d+\\.cpuprofile$`));
    }
    assert.ok(nodeOptionsFor('bff/dist/main.js', env).includes('--cpu-prof'));
  });

  test('when the CPU per update is split by process, then the live path sums the apps and the stack, not the bench or neighbours', () => {
    const perProcess = {
      bff: 3,
      offers: 0.5,
      postgres: 1.25,
      kafka: 1,
      'redis-server': 0.25,
      keycloak: 0.5,
      'bench sender': 0.75,
      kdamond: 0.5,
    };
    assert.deepEqual(onThePath(perProcess, ['bff', 'offers', 'bench sender']), {
      total: 6,
      byProcess: { bff: 3, offers: 0.5, postgres: 1.25, kafka: 1, 'redis-server': 0.25 },
    });
  });

  test("when BENCH_BFF_ENV is set, then its pairs are the BFF's extra environment, and a pair without = is refused", () => {
    assert.deepEqual(benchBffEnvironment({ BENCH_BFF_ENV: 'MALLOC_ARENA_MAX=2  A=b=c' }), {
      MALLOC_ARENA_MAX: '2',
      A: 'b=c',
    });
    assert.deepEqual(benchBffEnvironment({}), {});
    assert.throws(() => benchBffEnvironment({ BENCH_BFF_ENV: 'MALLOC_ARENA_MAX' }), /KEY=value/);
  });

  test("when a Dockerfile's runtime stage sets NODE_OPTIONS, then the last setting is the image's options", () => {
    const dockerfile = [
      'FROM node AS build',
      'ENV NODE_OPTIONS=--max-old-space-size=4096',
      'FROM node AS runtime',
      'ENV NODE_ENV=production HOST=0.0.0.0 NODE_OPTIONS="--max-semi-space-size=8 --stack-trace-limit=20"',
      'CMD ["node", "dist/main.js"]',
    ].join('\n');
    assert.deepEqual(imageNodeOptions(dockerfile), [
      '--max-semi-space-size=8',
      '--stack-trace-limit=20',
    ]);
    assert.deepEqual(imageNodeOptions('FROM node\nENV NODE_ENV=production\n'), []);
  });
});
