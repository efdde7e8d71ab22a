import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, test } from 'vitest';
import {
  failureMessageChars,
  formatFailures,
  formatFileTimings,
  parseVitestReport,
  readVitestReport,
} from '../src/cli/test-summary';
import { repositoryRoot } from '../src/stack/paths';

const report = (overrides: object) =>
  JSON.stringify({
    numTotalTests: 0,
    numPassedTests: 0,
    numFailedTests: 0,
    numPendingTests: 0,
    success: true,
    testResults: [],
    ...overrides,
  });

describe('the slowest files of a run', () => {
  test('when files of several workspaces took different times, then they are listed longest first in seconds', () => {
    const lines = formatFileTimings([
      { file: 'bff/test/a.test.ts', durationMs: 1_250 },
      { file: 'web/test/e2e/b.test.ts', durationMs: 95_040 },
      { file: 'infra/test/c.test.ts', durationMs: 12_000 },
    ]);

    assert.deepEqual(lines, [
      '    95.0 s  web/test/e2e/b.test.ts',
      '    12.0 s  infra/test/c.test.ts',
      '     1.3 s  bff/test/a.test.ts',
    ]);
  });
});

describe('counting a workspace from vitest JSON report', () => {
  const directory = mkdtempSync(join(tmpdir(), 'raly-summary-test-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  test('when tests passed and failed, then the report counts are taken', () => {
    const text = report({
      numPassedTests: 14,
      numFailedTests: 1,
      testResults: [
        {
          name: `${repositoryRoot}/bff/test/live.test.ts`,
          status: 'failed',
          startTime: 1_000,
          endTime: 13_500,
          assertionResults: [
            { status: 'passed', fullName: 'live a' },
            {
              status: 'failed',
              fullName: 'live when a push arrives, then every tab sees it',
              failureMessages: [
                `\u001b[31mAssertionError: expected 2 to equal 3\u001b[39m\n    at live.test.ts:10:3`,
              ],
            },
          ],
        },
        { status: 'passed', assertionResults: [{ status: 'passed' }] },
      ],
    });

    assert.deepEqual(parseVitestReport(text), {
      passed: 14,
      failed: 1,
      found: true,
      failures: [
        {
          file: 'bff/test/live.test.ts',
          test: 'live when a push arrives, then every tab sees it',
          message: 'AssertionError: expected 2 to equal 3',
        },
      ],
      retried: [],
      files: [{ file: 'bff/test/live.test.ts', durationMs: 12_500 }],
    });
  });

  test('when a test file failed without a failing test (it did not load, a hook failed), then it counts as one failure', () => {
    const text = report({
      numPassedTests: 3,
      testResults: [
        {
          name: '/elsewhere/hook.test.ts',
          status: 'failed',
          message: `\nError: Hook timed out in 600000ms\n    at ${'x'.repeat(400)}`,
          assertionResults: [],
        },
        { status: 'passed', assertionResults: [{ status: 'passed' }] },
      ],
    });

    assert.deepEqual(parseVitestReport(text), {
      passed: 3,
      failed: 1,
      found: true,
      failures: [
        { file: '/elsewhere/hook.test.ts', test: '', message: 'Error: Hook timed out in 600000ms' },
      ],
      retried: [],
      files: [],
    });
  });

  test('when the output is no vitest report, then nothing is counted and that is reported', () => {
    assert.deepEqual(parseVitestReport('Error: cannot find module'), {
      passed: 0,
      failed: 0,
      found: false,
      failures: [],
      retried: [],
      files: [],
    });
    assert.deepEqual(parseVitestReport('{"numTotalTests": 3}'), {
      passed: 0,
      failed: 0,
      found: false,
      failures: [],
      retried: [],
      files: [],
    });
  });

  test('when the report file is missing (a crash before vitest wrote it), then nothing is found', () => {
    assert.deepEqual(readVitestReport(join(directory, 'missing.json')), {
      passed: 0,
      failed: 0,
      found: false,
      failures: [],
      retried: [],
      files: [],
    });
  });

  test('when the report file is there, then it is read', () => {
    const file = join(directory, 'report.json');
    writeFileSync(file, report({ numPassedTests: 2 }));

    assert.deepEqual(readVitestReport(file), {
      passed: 2,
      failed: 0,
      found: true,
      failures: [],
      retried: [],
      files: [],
    });
  });

  test('when a file failed in a hook, which leaves no message in the report, then the summary says where its error is', () => {
    const text = report({
      testResults: [
        {
          name: '/x/kafka-cluster.test.ts',
          status: 'failed',
          message: '',
          assertionResults: [{ status: 'skipped', fullName: 'a t', failureMessages: [] }],
        },
      ],
    });

    assert.deepEqual(parseVitestReport(text).failures, [
      {
        file: '/x/kafka-cluster.test.ts',
        test: '',
        message:
          'failed outside its tests (a hook, or the file did not load); its error is in the log above',
      },
    ]);
  });

  test('when an assertion failed in the test file, then its message keeps the lines before the stack and the line of the test file', () => {
    const file = `${repositoryRoot}/services/x/test/a.test.ts`;
    const message = [
      '\u001b[31mAssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '',
      '1 !== 2\u001b[39m',
      '',
      `    at check (${repositoryRoot}/services/x/test/support.ts:12:5)`,
      `    at ${file}:190:12`,
      '    at processTicksAndRejections (node:internal/process/task_queues:95:5)',
    ].join('\n');
    const text = report({
      numFailedTests: 1,
      testResults: [
        {
          name: file,
          status: 'failed',
          assertionResults: [{ status: 'failed', fullName: 'x a', failureMessages: [message] }],
        },
      ],
    });

    const { failures } = parseVitestReport(text);

    assert.equal(
      failures[0]?.message,
      'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 1 !== 2 (at services/x/test/a.test.ts:190)',
    );
  });

  test('when a message is longer than the summary keeps, then it is cut with an ellipsis and printed under the test', () => {
    const text = report({
      numFailedTests: 1,
      testResults: [
        {
          name: '/x/a.test.ts',
          status: 'failed',
          assertionResults: [
            { status: 'failed', fullName: 'a b', failureMessages: ['y'.repeat(1000)] },
          ],
        },
      ],
    });

    const { failures } = parseVitestReport(text);
    assert.equal(failures[0]?.message.length, failureMessageChars);
    assert.ok(failures[0]?.message.endsWith('…'));
    assert.deepEqual(formatFailures(failures), [
      '    ✗ /x/a.test.ts › a b',
      `      ${failures[0]?.message}`,
    ]);
  });

  test('when a test failed and then passed on its retry, then it counts as passed and is named as retried', () => {
    const text = report({
      numPassedTests: 2,
      testResults: [
        {
          name: `${repositoryRoot}/bench/test/chaos.test.ts`,
          status: 'passed',
          assertionResults: [
            { status: 'passed', fullName: 'steady', failureMessages: [] },
            {
              status: 'passed',
              fullName: 'chaos loses nothing',
              failureMessages: ['Error: timed out after 60000 ms waiting for the outbox'],
            },
          ],
        },
      ],
    });

    const counts = parseVitestReport(text);
    assert.equal(counts.failed, 0);
    assert.deepEqual(counts.failures, []);
    assert.deepEqual(counts.retried, [
      {
        file: 'bench/test/chaos.test.ts',
        test: 'chaos loses nothing',
        message: 'Error: timed out after 60000 ms waiting for the outbox',
      },
    ]);
    assert.deepEqual(formatFailures(counts.retried, '↻'), [
      '    ↻ bench/test/chaos.test.ts › chaos loses nothing',
      '      Error: timed out after 60000 ms waiting for the outbox',
    ]);
  });
});
