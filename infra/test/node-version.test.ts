/**
 * One supported Node everywhere: `.node-version` pins one exact version, npm test runs on it
 * (infra/bin/raly.mjs runs itself again on it), the root package admits it, and every image
 * builds on the same major line.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'vitest';

const repository = path.resolve(import.meta.dirname, '..', '..');
/** Every app's Dockerfile: each service's, the BFF's and the web's. */
const dockerfiles = [
  ...readdirSync(path.join(repository, 'services')).map((name) => `services/${name}/Dockerfile`),
  'bff/Dockerfile',
  'web/Dockerfile',
].filter((file) => existsSync(path.join(repository, file)));

describe('the project Node', () => {
  const pinned = readFileSync(path.join(repository, '.node-version'), 'utf8').trim();
  const major = pinned.split('.')[0]!;

  test('when npm test runs, then it runs on the pinned version, an even (LTS) line', () => {
    assert.match(pinned, /^\d+\.\d+\.\d+$/);
    assert.equal(process.versions.node, pinned);
    assert.equal(Number(major) % 2, 0, `${pinned} is not an LTS line`);
  });

  test('when the root package is read, then its engines admit only the pinned line', () => {
    const manifest = JSON.parse(readFileSync(path.join(repository, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    assert.equal(manifest.engines.node, `>=${pinned} <${Number(major) + 1}`);
  });

  test('when the Dockerfiles are listed, then every app has one', () => {
    assert.ok(dockerfiles.length >= 7, dockerfiles.join(', '));
  });

  test.each(dockerfiles)('when %s is read, then its default base image is that line', (file) => {
    const text = readFileSync(path.join(repository, file), 'utf8');
    const image = /^ARG NODE_IMAGE=(.+)$/m.exec(text)?.[1];
    assert.equal(image, `node:${major}-bookworm-slim`);
  });
});
