/**
 * `npm run chaos`, short: the scaled topology (started by the
 * run unless one runs on the RALY_SCALE_* ports, and stopped again), a few
 * users with two tabs each, a few hundred changes through the BFF and
 * through Kafka, and the same faults as the full run (a Kafka node twice, a
 * BFF replica, an instance of each service, both notifications instances,
 * Redis, the services' Postgres connections), and meanwhile messages between
 * the parties of a few collaborations and offers and applications that notify
 * people. The guarantee CI keeps: nothing acknowledged is lost, no
 * client ends disconnected, the outbox drains, nothing is dead-lettered
 * that a later snapshot did not supersede, every acknowledged message is in
 * its history exactly once, every inbox item of an acknowledged offer or
 * application is in its inbox exactly once.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, test } from 'vitest';

const benchDir = path.resolve(import.meta.dirname, '..');
const resultsDir = mkdtempSync(path.join(os.tmpdir(), 'raly-chaos-'));
const runTimeoutMs = 20 * 60_000;

afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

describe('npm run chaos (short)', () => {
  test(
    'when a Kafka node (twice), a BFF replica, an instance of each service, the notifications service, Redis and the Postgres connections are killed while changes, messages, offers and applications flow, then no acknowledged change, message or inbox item is lost or stored twice and every client ends connected and current',
    { timeout: runTimeoutMs + 60_000 },
    () => {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/chaos/main.ts'], {
        cwd: benchDir,
        env: {
          ...process.env,
          CHAOS_SIZE: 'short',
          BENCH_RESULTS_DIR: resultsDir,
          LOG_LEVEL: 'warn',
        },
        encoding: 'utf8',
        timeout: runTimeoutMs,
      });
      const output = `${run.stdout.slice(-6000)}\n${run.stderr.slice(-3000)}`;
      const result = JSON.parse(
        readFileSync(path.join(resultsDir, 'chaos-short.json'), 'utf8'),
      ) as {
        faults: { name: string; detail: string }[];
        sent: number;
        acknowledged: number;
        lost: number;
        differing: number;
        disconnected: number;
        sockets: number;
        outboxPending: number;
        deadLetters: { superseded: boolean | 'unknown' }[];
        messages: { sent: number; acknowledged: number; lost: number; duplicates: number };
        notifications: {
          offers: number;
          expected: number;
          lost: number;
          duplicates: number;
          inboxesDiffering: number;
        };
        goalMet: boolean;
      };
      assert.equal(result.faults.length, 7, output);
      for (const fault of result.faults) assert.doesNotMatch(fault.detail, /^FAILED/, fault.name);
      assert.ok(result.sent >= 500 && result.acknowledged > 0, output);
      assert.equal(result.lost, 0, `acknowledged changes lost\n${output}`);
      assert.equal(result.differing, 0, `client records differ from the services'\n${output}`);
      assert.equal(result.disconnected, 0, `clients ended disconnected\n${output}`);
      assert.ok(result.sockets > 0);
      assert.equal(result.outboxPending, 0, `outbox rows left pending\n${output}`);
      assert.deepEqual(
        result.deadLetters.filter((letter) => letter.superseded !== true),
        [],
        'every dead letter was superseded',
      );
      assert.ok(
        result.messages.sent >= 120 && result.messages.acknowledged > 0,
        `messages were sent and acknowledged\n${output}`,
      );
      assert.equal(result.messages.lost, 0, `acknowledged messages lost\n${output}`);
      assert.equal(result.messages.duplicates, 0, `messages stored twice\n${output}`);
      assert.ok(
        result.notifications.offers > 0 && result.notifications.expected > 0,
        `offers were opened\n${output}`,
      );
      assert.equal(result.notifications.lost, 0, `inbox items lost\n${output}`);
      assert.equal(result.notifications.duplicates, 0, `inbox items twice\n${output}`);
      assert.equal(result.notifications.inboxesDiffering, 0, `unread counts differ\n${output}`);
      assert.equal(result.goalMet, true, output);
      assert.equal(run.status, 0, output);
    },
  );
});
