import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, test } from 'vitest';
import { parseVitestReport, readVitestReport } from '../src/cli/test-summary';

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

describe('counting a workspace from vitest JSON report', () => {
  const directory = mkdtempSync(join(tmpdir(), 'raly-summary-test-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  test('when tests passed and failed, then the report counts are taken', () => {
    const text = report({
      numPassedTests: 14,
      numFailedTests: 1,
      testResults: [
        { status: 'failed', assertionResults: [{ status: 'passed' }, { status: 'failed' }] },
        { status: 'passed', assertionResults: [{ status: 'passed' }] },
      ],
    });

    assert.deepEqual(parseVitestReport(text), { passed: 14, failed: 1, found: true });
  });

  test('when a test file failed without a failing test (it did not load, a hook failed), then it counts as one failure', () => {
    const text = report({
      numPassedTests: 3,
      testResults: [
        { status: 'failed', assertionResults: [] },
        { status: 'passed', assertionResults: [{ status: 'passed' }] },
      ],
    });

    assert.deepEqual(parseVitestReport(text), { passed: 3, failed: 1, found: true });
  });

  test('when the output is no vitest report, then nothing is counted and that is reported', () => {
    assert.deepEqual(parseVitestReport('Error: cannot find module'), {
      passed: 0,
      failed: 0,
      found: false,
    });
    assert.deepEqual(parseVitestReport('{"numTotalTests": 3}'), {
      passed: 0,
      failed: 0,
      found: false,
    });
  });

  test('when the report file is missing (a crash before vitest wrote it), then nothing is found', () => {
    assert.deepEqual(readVitestReport(join(directory, 'missing.json')), {
      passed: 0,
      failed: 0,
      found: false,
    });
  });

  test('when the report file is there, then it is read', () => {
    const file = join(directory, 'report.json');
    writeFileSync(file, report({ numPassedTests: 2 }));

    assert.deepEqual(readVitestReport(file), { passed: 2, failed: 0, found: true });
  });
});
