/** Reads the node test runner's summary lines out of a workspace's test output. */

/** Sums the node test runner summaries (TAP "# pass N" or spec "ℹ pass N") in an output. */
export function parseTestSummary(output: string): {
  passed: number;
  failed: number;
  found: boolean;
} {
  let passed = 0;
  let failed = 0;
  let found = false;
  for (const match of output.matchAll(/^(?:\[[^\]]*\] )?(?:#|ℹ) (pass|fail) (\d+)\s*$/gm)) {
    found = true;
    if (match[1] === 'pass') passed += Number(match[2]);
    else failed += Number(match[2]);
  }
  return { passed, failed, found };
}
