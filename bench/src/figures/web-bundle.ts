/**
 * The web app's initial JavaScript: the production build (`npm run build -w
 * web`), then every script and modulepreload that web/dist/index.html loads
 * before anything else, gzip-compressed (level 9, as a CDN would serve it).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { repositoryRoot } from '../bench-system';

export interface WebBundleResult {
  files: { file: string; gzipBytes: number }[];
  initialGzipKiB: number;
}

export function measureWebBundle(): WebBundleResult {
  // A production build whatever NODE_ENV the caller has (vitest's "test" makes Vite bundle React's dev build).
  execFileSync('npm', ['run', 'build', '-w', 'web'], {
    cwd: repositoryRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const dist = path.join(repositoryRoot, 'web', 'dist');
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const sources = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((match) => match[1]!);
  const files = [...new Set(sources)].map((source) => {
    const bytes = readFileSync(path.join(dist, source.replace(/^\//, '')));
    return { file: source, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
  const total = files.reduce((sum, file) => sum + file.gzipBytes, 0);
  return { files, initialGzipKiB: Math.round((total / 1024) * 10) / 10 };
}
