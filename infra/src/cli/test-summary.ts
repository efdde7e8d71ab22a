/**
 * Reads a workspace's vitest results: the JSON report vitest writes with
 * `--reporter=json --outputFile=<file>` (Jest-compatible: numPassedTests,
 * numFailedTests, testResults[] per file).
 */
import { existsSync, readFileSync } from 'node:fs';

/** What `npm test` counts for one workspace; `found` is false when there was no report to read. */
export interface TestCounts {
  passed: number;
  failed: number;
  found: boolean;
}

interface VitestJsonReport {
  numPassedTests?: number;
  numFailedTests?: number;
  testResults?: Array<{
    status?: string;
    assertionResults?: Array<{ status?: string }>;
  }>;
}

/**
 * Counts a vitest JSON report: passed and failed tests, and one failure more
 * for each test file that failed without a failing test (it did not load, or
 * a hook failed before any test ran).
 * @param json the report's text
 * @returns the counts; found false when the text is not a vitest report
 */
export function parseVitestReport(json: string): TestCounts {
  let report: VitestJsonReport;
  try {
    report = JSON.parse(json) as VitestJsonReport;
  } catch {
    return { passed: 0, failed: 0, found: false };
  }
  if (typeof report?.numPassedTests !== 'number' || typeof report.numFailedTests !== 'number')
    return { passed: 0, failed: 0, found: false };
  const brokenFiles = (report.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' &&
      !(file.assertionResults ?? []).some((assertion) => assertion.status === 'failed'),
  ).length;
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + brokenFiles,
    found: true,
  };
}

/** {@link parseVitestReport} of a report file; found false when the file is missing (a crash before the report). */
export function readVitestReport(file: string): TestCounts {
  if (!existsSync(file)) return { passed: 0, failed: 0, found: false };
  return parseVitestReport(readFileSync(file, 'utf8'));
}
