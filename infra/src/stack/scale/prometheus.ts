/**
 * Prometheus from Debian's `prometheus` package (installed with apt when
 * missing), scraping every app instance of the scaled topology on its own
 * port (`metrics_path` RALY_SCALE_METRICS_PATH, default `/metrics`), plus
 * HAProxy's exporter, Zipkin and itself. Data in `<dataRoot>/tsdb`, kept 1 day.
 * The UI: http://127.0.0.1:<port>/ (Status → Targets shows each instance's health).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StackComponent } from '../component';
import { installDebianPackages } from '../debian';
import { ensureDirectory } from '../paths';
import { recordedLiveProcess, stopRecorded } from '../processes';
import { httpAnswers } from '../probes';
import { withProgress } from '../progress';
import { host } from '../settings';
import { startAndAwaitHealthy } from './background';

/** One scraped process: a job (workspace), its instance name and port. */
export interface ScrapeTarget {
  job: string;
  /** `bff-1` …: the `instance_name` label (the `instance` label is `127.0.0.1:<port>`). */
  name: string;
  port: number;
  /** Default: the plan's `metricsPath`. */
  metricsPath?: string;
}

export interface ScrapePlan {
  targets: ScrapeTarget[];
  /** The path scraped on app ports, e.g. `/metrics`. */
  metricsPath: string;
  /** Seconds between scrapes (default 5). */
  intervalSeconds?: number;
}

/**
 * The prometheus.yml for a plan, as JSON (which is YAML): one scrape job per
 * job name and metrics path, each target labelled with its `instance_name`.
 */
export function prometheusConfig(plan: ScrapePlan): string {
  const jobs = new Map<string, { job: string; path: string; targets: ScrapeTarget[] }>();
  for (const target of plan.targets) {
    const path = target.metricsPath ?? plan.metricsPath;
    const key = `${target.job} ${path}`;
    const entry = jobs.get(key) ?? { job: target.job, path, targets: [] };
    entry.targets.push(target);
    jobs.set(key, entry);
  }
  const interval = `${plan.intervalSeconds ?? 5}s`;
  return `${JSON.stringify(
    {
      global: { scrape_interval: interval, evaluation_interval: interval },
      scrape_configs: [...jobs.values()].map(({ job, path, targets }) => ({
        job_name: job,
        metrics_path: path,
        static_configs: targets.map((target) => ({
          targets: [`${host}:${target.port}`],
          labels: { instance_name: target.name },
        })),
      })),
    },
    null,
    2,
  )}\n`;
}

function prometheusInstalled(): boolean {
  try {
    execFileSync('prometheus', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Prometheus as a stack component on `port`.
 * @param dataRoot where prometheus.yml and the TSDB live
 */
export function prometheusComponent(
  name: string,
  dataRoot: string,
  port: number,
  plan: () => ScrapePlan,
): StackComponent {
  const isHealthy = () => httpAnswers(`http://${host}:${port}/-/ready`);
  return {
    name,
    address: `${host}:${port}`,
    isHealthy,
    async ensure() {
      if (await isHealthy()) return 'reused';
      if (recordedLiveProcess(name)) await stopRecorded(name);
      if (!prometheusInstalled()) await installDebianPackages(name, ['prometheus']);
      const configFile = join(ensureDirectory(dataRoot), 'prometheus.yml');
      writeFileSync(configFile, prometheusConfig(plan()));
      await withProgress(name, `starting Prometheus on ${host}:${port}`, () =>
        startAndAwaitHealthy(
          {
            component: name,
            command: 'prometheus',
            args: [
              `--config.file=${configFile}`,
              `--storage.tsdb.path=${join(dataRoot, 'tsdb')}`,
              '--storage.tsdb.retention.time=1d',
              `--web.listen-address=${host}:${port}`,
            ],
            cwd: dataRoot,
          },
          isHealthy,
          60_000,
        ),
      );
      return 'started';
    },
    stop: () => stopRecorded(name, 15_000),
  };
}
