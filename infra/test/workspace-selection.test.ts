/**
 * `npm test` runs each workspace's tests once, under its own name: npm's
 * `-w <folder>` also selects the workspaces nested in that folder (`infra`
 * holds `infra/test-stack` and `infra/test-support`), so the CLIs select a
 * workspace by its package name.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'vitest';
import { testedWorkspaces, testLanes, workspaceSelector } from '../src/cli/workspaces';
import { repositoryRoot } from '../src/stack/paths';

/** The package names npm selects for `-w <selector>`. */
function packagesSelectedBy(selector: string): string[] {
  const output = execFileSync('npm', ['pkg', 'get', 'name', '-w', selector], {
    cwd: repositoryRoot,
    encoding: 'utf8',
  });
  return Object.keys(JSON.parse(output) as Record<string, string>);
}

describe('selecting a workspace', () => {
  test('when a workspace holds other workspaces, then its selector still picks it alone', () => {
    // Act
    const byFolder = packagesSelectedBy('infra');
    const bySelector = packagesSelectedBy(workspaceSelector('infra'));

    // Assert: the folder picks the nested ones too; the selector does not
    assert.ok(byFolder.includes('@raly/test-support'), byFolder.join(', '));
    assert.deepEqual(bySelector, ['@raly/infra']);
  });

  test('when npm test walks the workspaces, then each selector picks exactly its own folder', () => {
    const selected = testedWorkspaces.map((workspace) =>
      packagesSelectedBy(workspaceSelector(workspace)),
    );
    assert.ok(
      selected.every((names) => names.length === 1),
      JSON.stringify(selected),
    );
    assert.equal(new Set(selected.flat()).size, testedWorkspaces.length);
  });
});

describe('the lanes npm test runs the workspaces in', () => {
  test('when two lanes run, then every workspace runs once, the product in dependency order beside contracts and infra, and bench last alone', () => {
    // Act
    const groups = testLanes(2);

    // Assert
    const all = groups.flat(2);
    assert.deepEqual([...all].sort(), [...testedWorkspaces].sort());
    assert.equal(new Set(all).size, all.length);
    const [together, alone] = groups;
    assert.deepEqual(together![1], ['services/shared/contracts', 'infra']);
    const product = together![0]!;
    assert.ok(product.indexOf('services/shared/service-kit') < product.indexOf('bff'));
    assert.ok(product.indexOf('bff') < product.indexOf('web'));
    assert.deepEqual(alone, [['bench']]);
  });

  test('when one lane is asked for, then every workspace runs one after the other in the listed order', () => {
    assert.deepEqual(testLanes(1), [[[...testedWorkspaces]]]);
  });
});
