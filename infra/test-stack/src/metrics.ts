/**
 * Reading an app's `GET /metrics` (Prometheus text format) in
 * tests: the value of one series picked by name and labels.
 */
import assert from 'node:assert/strict';

/** One series of a scrape: its name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Parses a Prometheus text exposition (comments skipped).
 * @returns every sample, in order
 */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = value!.replace(/\\(.)/g, (_all, char: string) => (char === 'n' ? '\n' : char));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/**
 * The value of the first series named `name` whose labels include `labels`.
 * @returns its value, or undefined when no series matches
 */
export function metricValue(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  return samples.find(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

/**
 * Scrapes `<baseUrl>/metrics`.
 * @returns the samples and the raw text
 * @throws AssertionError when the answer is not 200 in the Prometheus text format
 */
export async function scrapeMetrics(baseUrl: string): Promise<{ samples: Sample[]; text: string }> {
  const response = await fetch(`${baseUrl}/metrics`);
  const text = await response.text();
  assert.equal(response.status, 200, text);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
  return { samples: parseMetrics(text), text };
}
