/**
 * Reads a workspace's vitest results: the JSON report vitest writes with
 * `--reporter=json --outputFile=<file>` (Jest-compatible: numPassedTests,
 * numFailedTests, testResults[] per file).
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { repositoryRoot } from '../stack/paths';

/** One failed test, or one test file that failed without a failing test. */
export interface TestFailure {
  /** the test file, relative to the repository root when it lies under it */
  file: string;
  /** the test's full name (describe blocks and title); empty for a file-level failure */
  test: string;
  /** the first line of the first failure message, at most {@link failureMessageChars} characters */
  message: string;
}

/** What `npm test` counts for one workspace; `found` is false when there was no report to read. */
export interface TestCounts {
  passed: number;
  failed: number;
  found: boolean;
  /** what failed, in report order (empty when nothing failed or no report was found) */
  failures: TestFailure[];
  /** tests that failed first and passed on their retry (vitest `retry`), with the first failure */
  retried: TestFailure[];
}

interface VitestJsonReport {
  numPassedTests?: number;
  numFailedTests?: number;
  testResults?: Array<{
    name?: string;
    status?: string;
    message?: string;
    assertionResults?: Array<{ status?: string; fullName?: string; failureMessages?: string[] }>;
  }>;
}

/** The longest failure message the summary keeps (characters). */
export const failureMessageChars = 240;

/** First non-empty line of a failure message, without ANSI colours, cut to {@link failureMessageChars}. */
function firstLine(text: string | undefined): string {
  // eslint-disable-next-line no-control-regex -- vitest colours its messages with ANSI escapes
  const plain = (text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  const line = plain.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  const trimmed = line.trim();
  return trimmed.length > failureMessageChars
    ? `${trimmed.slice(0, failureMessageChars - 1)}…`
    : trimmed;
}

function displayPath(file: string | undefined): string {
  if (!file) return '(unknown file)';
  return file.startsWith(`${repositoryRoot}/`) ? relative(repositoryRoot, file) : file;
}

/**
 * Counts a vitest JSON report: passed and failed tests, and one failure more
 * for each test file that failed without a failing test (it did not load, or
 * a hook failed before any test ran). Lists what failed, so that a CI log
 * whose start is cut off still names the failing tests at its end.
 * @param json the report's text
 * @returns the counts and failures; found false when the text is not a vitest report
 */
export function parseVitestReport(json: string): TestCounts {
  const none: TestCounts = { passed: 0, failed: 0, found: false, failures: [], retried: [] };
  let report: VitestJsonReport;
  try {
    report = JSON.parse(json) as VitestJsonReport;
  } catch {
    return none;
  }
  if (typeof report?.numPassedTests !== 'number' || typeof report.numFailedTests !== 'number')
    return none;
  const failures: TestFailure[] = [];
  const retried: TestFailure[] = [];
  let brokenFiles = 0;
  for (const file of report.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter(
      (assertion) => assertion.status === 'failed',
    );
    for (const assertion of failedTests) {
      failures.push({
        file: displayPath(file.name),
        test: assertion.fullName ?? '',
        message: firstLine(assertion.failureMessages?.[0]),
      });
    }
    // A passed test that carries failure messages failed before: it passed on a retry.
    for (const assertion of file.assertionResults ?? []) {
      if (assertion.status !== 'passed' || !assertion.failureMessages?.length) continue;
      retried.push({
        file: displayPath(file.name),
        test: assertion.fullName ?? '',
        message: firstLine(assertion.failureMessages[0]),
      });
    }
    if (file.status === 'failed' && failedTests.length === 0) {
      brokenFiles += 1;
      failures.push({
        file: displayPath(file.name),
        test: '',
        // vitest's JSON report keeps no message for a failed hook: its error is in the log.
        message:
          firstLine(file.message) ||
          'failed outside its tests (a hook, or the file did not load); its error is in the log above',
      });
    }
  }
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + brokenFiles,
    found: true,
    failures,
    retried,
  };
}

/** {@link parseVitestReport} of a report file; found false when the file is missing (a crash before the report). */
export function readVitestReport(file: string): TestCounts {
  if (!existsSync(file)) return { passed: 0, failed: 0, found: false, failures: [], retried: [] };
  return parseVitestReport(readFileSync(file, 'utf8'));
}

/**
 * The lines `npm test` prints for the failures of one workspace: the file, the
 * test's name, and the first line of its message, indented under the workspace.
 * @param failures what {@link parseVitestReport} found
 * @param mark the line's mark: `✗` for a failure, `↻` for a test that passed on its retry
 * @returns printable lines (empty when the list is)
 */
export function formatFailures(failures: TestFailure[], mark = '✗'): string[] {
  return failures.flatMap((failure) => [
    `    ${mark} ${failure.file}${failure.test ? ` › ${failure.test}` : ''}`,
    `      ${failure.message || '(no message)'}`,
  ]);
}
