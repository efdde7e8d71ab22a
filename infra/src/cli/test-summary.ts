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
  /** the first failure message's headline (lines before its stack, and the test file's line), at most {@link failureMessageChars} characters */
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
  /** each test file's wall time (ms, from its start to its end), in report order */
  files: FileTiming[];
}

/** One test file's wall time as vitest's JSON report gives it. */
export interface FileTiming {
  /** the file, relative to the repository root */
  file: string;
  /** from the file's start to its end, in ms */
  durationMs: number;
}

interface VitestJsonReport {
  numPassedTests?: number;
  numFailedTests?: number;
  testResults?: Array<{
    name?: string;
    status?: string;
    startTime?: number;
    endTime?: number;
    message?: string;
    assertionResults?: Array<{ status?: string; fullName?: string; failureMessages?: string[] }>;
  }>;
}

/** The longest failure message the summary keeps (characters). */
export const failureMessageChars = 400;

/**
 * The headline of a failure message: its lines before the stack trace, without
 * ANSI colours and blank lines, joined by spaces (so `assert.equal`'s
 * `1 !== 2` stays beside its first line), then ` (at <file>:<line>)` of the
 * first stack frame in `testFile` when there is one; cut to
 * {@link failureMessageChars} with an ellipsis.
 * @param text a vitest failure message (message and stack)
 * @param testFile the failing test's file, absolute as vitest reports it
 */
function headline(text: string | undefined, testFile?: string): string {
  // eslint-disable-next-line no-control-regex -- vitest colours its messages with ANSI escapes
  const plain = (text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  const lines = plain.split('\n').map((line) => line.trim());
  const stackStart = lines.findIndex((line) => line.startsWith('at '));
  const message = (stackStart === -1 ? lines : lines.slice(0, stackStart))
    .filter((line) => line !== '')
    .join(' ');
  const frame =
    testFile && stackStart !== -1
      ? lines
          .slice(stackStart)
          .map((line) => line.match(/([^\s(]+):(\d+):\d+\)?$/))
          .find((match) => match?.[1] === testFile)
      : undefined;
  const whole = frame ? `${message} (at ${displayPath(testFile)}:${frame[2]})` : message;
  return whole.length > failureMessageChars ? `${whole.slice(0, failureMessageChars - 1)}…` : whole;
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
  const none: TestCounts = {
    passed: 0,
    failed: 0,
    found: false,
    failures: [],
    retried: [],
    files: [],
  };
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
  const files: FileTiming[] = [];
  let brokenFiles = 0;
  for (const file of report.testResults ?? []) {
    if (typeof file.startTime === 'number' && typeof file.endTime === 'number')
      files.push({
        file: displayPath(file.name),
        durationMs: Math.max(0, file.endTime - file.startTime),
      });
    const failedTests = (file.assertionResults ?? []).filter(
      (assertion) => assertion.status === 'failed',
    );
    for (const assertion of failedTests) {
      failures.push({
        file: displayPath(file.name),
        test: assertion.fullName ?? '',
        message: headline(assertion.failureMessages?.[0], file.name),
      });
    }
    // A passed test that carries failure messages failed before: it passed on a retry.
    for (const assertion of file.assertionResults ?? []) {
      if (assertion.status !== 'passed' || !assertion.failureMessages?.length) continue;
      retried.push({
        file: displayPath(file.name),
        test: assertion.fullName ?? '',
        message: headline(assertion.failureMessages[0], file.name),
      });
    }
    if (file.status === 'failed' && failedTests.length === 0) {
      brokenFiles += 1;
      failures.push({
        file: displayPath(file.name),
        test: '',
        // vitest's JSON report keeps no message for a failed hook: its error is in the log.
        message:
          headline(file.message, file.name) ||
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
    files,
  };
}

/** {@link parseVitestReport} of a report file; found false when the file is missing (a crash before the report). */
export function readVitestReport(file: string): TestCounts {
  if (!existsSync(file))
    return { passed: 0, failed: 0, found: false, failures: [], retried: [], files: [] };
  return parseVitestReport(readFileSync(file, 'utf8'));
}

/**
 * The lines `npm test` prints for the failures of one workspace: the file, the
 * test's name, and its message's headline, indented under the workspace.
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

/**
 * The slowest test files of a run, longest first: what `npm test` writes to
 * `.stack/logs/test-timings.txt`, so that a run's time can be read file by file.
 * @param files every workspace's file timings
 * @returns printable lines, `   123.4 s  path/to/file.test.ts`
 */
export function formatFileTimings(files: FileTiming[]): string[] {
  return [...files]
    .sort((a, b) => b.durationMs - a.durationMs)
    .map((timing) => `${(timing.durationMs / 1000).toFixed(1).padStart(8)} s  ${timing.file}`);
}
