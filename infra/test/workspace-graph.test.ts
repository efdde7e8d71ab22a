/**
 * The workspace packages' graph (dependencies and devDependencies of every
 * workspace package.json, docs/conventions.md "Boundaries"): it has no cycle,
 * and no shipped package depends on test support at run time.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'vitest';

const repository = path.resolve(import.meta.dirname, '..', '..');

interface PackageJson {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const readPackage = (directory: string) =>
  JSON.parse(readFileSync(path.join(repository, directory, 'package.json'), 'utf8')) as PackageJson;

const workspaces = (readPackage('.').workspaces ?? []).map((directory) => ({
  directory,
  manifest: readPackage(directory),
}));
const workspaceNames = new Set(workspaces.map(({ manifest }) => manifest.name));

/** What deploys (the apps and the web app) and the libraries they ship with. */
const shipped = [
  'services/shared/contracts',
  'services/shared/service-kit',
  'services/identity-profile',
  'services/brand',
  'services/media',
  'services/offers',
  'services/collaborations',
  'services/notifications',
  'services/moderation',
  'bff',
  'web',
];
const testSupport = ['@raly/test-stack', '@raly/test-support'];

/** Each workspace package → the workspace packages it depends on (run time and development). */
function workspaceGraph(): Map<string, string[]> {
  return new Map(
    workspaces.map(({ manifest }) => [
      manifest.name,
      Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) =>
        workspaceNames.has(name),
      ),
    ]),
  );
}

/** @returns one cycle as its path (`a → b → a`), or undefined when the graph has none */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const visit = (node: string, trail: string[]): string[] | undefined => {
    const seen = trail.indexOf(node);
    if (seen >= 0) return [...trail.slice(seen), node];
    if (done.has(node)) return undefined;
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next, [...trail, node]);
      if (cycle) return cycle;
    }
    done.add(node);
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node, []);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('workspace graph', () => {
  test('when a package depends back on one that depends on it, then the cycle is found and named', () => {
    const graph = new Map([
      ['kit', ['contracts', 'test-support']],
      ['contracts', []],
      ['test-support', ['brand']],
      ['brand', ['kit']],
    ]);

    assert.deepEqual(findCycle(graph), ['kit', 'test-support', 'brand', 'kit']);
    assert.equal(findCycle(new Map([['kit', ['contracts']]])), undefined);
  });

  test('when every workspace package.json is read, then its dependencies and devDependencies form no cycle', () => {
    const graph = workspaceGraph();

    assert.ok(graph.size >= 12, `expected every workspace, read ${graph.size}`);
    const cycle = findCycle(graph);
    assert.equal(cycle, undefined, `package cycle: ${cycle?.join(' → ')}`);
  });

  test('when a shipped package lists its dependencies, then none is test support', () => {
    for (const directory of shipped) {
      const manifest = readPackage(directory);
      const runtime = Object.keys(manifest.dependencies ?? {});

      assert.deepEqual(
        runtime.filter((name) => testSupport.includes(name)),
        [],
        `${directory} depends on test support at run time`,
      );
    }
    for (const name of testSupport) assert.ok(workspaceNames.has(name), `${name} is a workspace`);
  });
});
