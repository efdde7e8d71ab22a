/** An app's Dockerfile (services/<app>/Dockerfile or <app>/Dockerfile) read as its stages. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repository } from './kustomize';

/** One `FROM` … section of a Dockerfile. */
export interface Stage {
  /** The `FROM` image with build arguments' defaults filled in. */
  image: string;
  name?: string;
  /** Instructions after FROM: [keyword in upper case, rest of the line]. */
  instructions: [string, string][];
}

/** @returns the Dockerfile of an app of k8s/base/apps: services/<app>/Dockerfile or <app>/Dockerfile */
export function dockerfileOf(app: string): string {
  const candidates = [
    path.join(repository, 'services', app, 'Dockerfile'),
    path.join(repository, app, 'Dockerfile'),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  assert.ok(
    found,
    `${app}: no Dockerfile at ${candidates.map((candidate) => path.relative(repository, candidate)).join(' or ')}`,
  );
  return found;
}

/**
 * Splits a Dockerfile into its stages (line continuations joined, comments dropped).
 * @returns the stages in order; the last one is what `docker build` produces without --target
 */
export function dockerfileStages(file: string): Stage[] {
  const lines = readFileSync(file, 'utf8')
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const globalArguments: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const argument = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      const [image = '', as, name] = argument.replace(/--platform=\S+\s+/, '').split(/\s+/);
      const resolved = image.replace(
        /\$\{(\w+)\}|\$(\w+)/g,
        (_match, braced, bare) => globalArguments[braced ?? bare] ?? '',
      );
      stages.push({
        image: resolved,
        name: as?.toUpperCase() === 'AS' ? name : undefined,
        instructions: [],
      });
    } else if (stages.length === 0 && keyword.toUpperCase() === 'ARG') {
      const [key = '', value = ''] = argument.split('=');
      globalArguments[key] = value;
    } else {
      stages.at(-1)?.instructions.push([keyword.toUpperCase(), argument]);
    }
  }
  return stages;
}
