/**
 * `npm run capacity -w bench`: recomputes the capacity plan from the latest bench results
 * (bench/results/suite.json, suite-partial.json, offer-fanout.json; a cost no result holds comes
 * from docs/benchmarks.md's figures) and rewrites the generated part of docs/capacity.md.
 * `--print` writes the generated part to stdout and leaves the file alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from '../bench-system';
import { writeFormatted } from '../results';
import { planCapacity } from './plan';
import { renderPlan, replaceGenerated } from './render';
import { unitCostsFrom, type BenchResult } from './unit-costs';

const resultsDirectory =
  process.env.BENCH_RESULTS_DIR ?? path.join(repositoryRoot, 'bench', 'results');

/** A result file parsed, or undefined when it is absent. */
function read(name: string): BenchResult | undefined {
  const file = path.join(resultsDirectory, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as BenchResult) : undefined;
}

const plan = planCapacity(
  unitCostsFrom({
    suite: read('suite'),
    partial: read('suite-partial'),
    offerFanout: read('offer-fanout'),
  }),
);
const generated = renderPlan(plan);
if (process.argv.includes('--print')) process.stdout.write(`${generated}\n`);
else {
  const file = path.join(repositoryRoot, 'docs', 'capacity.md');
  await writeFormatted(file, replaceGenerated(readFileSync(file, 'utf8'), generated));
  process.stdout.write(`[capacity] rewrote ${path.relative(repositoryRoot, file)}\n`);
}
for (const line of plan.sizing.filter((entry) => entry.short))
  process.stdout.write(
    `[capacity] short: ${line.component}: ${line.needed} ${line.unit} needed, ${line.configured} configured\n`,
  );
