/**
 * What ships is what is tested (docs/images.md): the apps' Dockerfiles built with Podman on
 * the local Debian base images, each image run as k8s/base runs it (read-only root, non-root
 * user, no capabilities, tmpfs for its emptyDir volumes) against the running local stack until
 * it answers its probes, a service's migrations applied by its image, with its migration Job's
 * command, to a throwaway database.
 * The builds run where Podman works (root, runc, debootstrap); RALY_IMAGES_APPS picks the apps
 * (comma list, `all`, or `none` to build nothing; default brand and web: `npm run images`
 * builds and checks the rest).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'vitest';
import {
  appManifest,
  buildAppImage,
  checkAppImage,
  checkPort,
  imageApps,
  imageTag,
  securityOptions,
  type ImageApp,
} from '../src/images/app-images';
import { bundledNpmVersion, debianMirror } from '../src/images/base-images';
import { localMigrationPod, overlayPodSpecs } from '../src/images/kube-play';
import { podman, podmanUnavailable } from '../src/images/podman';
import { repository } from './support/kustomize';

/** A port range of its own, apart from the apps' 4000–4007 and `npm run images`' 4650–4658. */
const portBase = Number(process.env.RALY_IMAGES_PORT_BASE ?? 4670);

describe('image runs from the manifests', () => {
  test("when a service's Deployment is read, then its container runs read-only, as its user, with no capability and its tmp volume", () => {
    // Act
    const options = securityOptions(appManifest('brand').pod).join(' ');

    // Assert
    assert.match(options, /--user 1000:1000/);
    assert.match(options, /--read-only --read-only-tmpfs=false/);
    assert.match(options, /--cap-drop ALL/);
    assert.match(options, /--security-opt no-new-privileges/);
    assert.match(options, /--tmpfs \/tmp:rw,size=64m,U/);
  });

  test('when the web Deployment is read, then nginx runs as 101 with /tmp and conf.d writable only', () => {
    // Act
    const options = securityOptions(appManifest('web').pod).join(' ');

    // Assert
    assert.match(options, /--user 101:101/);
    assert.match(options, /--tmpfs \/etc\/nginx\/conf\.d:rw,size=1m,U/);
    assert.doesNotMatch(options, /--privileged|--cap-add/);
  });

  test("when brand's migration Job of the dev overlay is played, then its pod runs the Job's command once in the image its Deployment plays, with the Job's security context and the database alone", async () => {
    // Arrange
    const { deployment, migration } = await overlayPodSpecs('dev', 'brand');
    assert.ok(migration, 'the Job brand-migrate');

    // Act
    const pod = localMigrationPod('brand', migration, portBase, 'postgresql://db/raly_x') as {
      metadata: { name: string };
      spec: {
        restartPolicy: string;
        hostNetwork: boolean;
        securityContext: unknown;
        containers: { command: string[]; image: string; env: unknown; securityContext: unknown }[];
      };
    };

    // Assert
    assert.equal(pod.metadata.name, 'raly-play-brand-migrate');
    assert.equal(pod.spec.restartPolicy, 'Never');
    assert.equal(pod.spec.hostNetwork, true, 'reaches the local Postgres');
    assert.deepEqual(pod.spec.securityContext, migration.securityContext);
    const [container] = pod.spec.containers;
    assert.deepEqual(container!.command, ['node', 'dist/migrate.js']);
    assert.equal(container!.image, imageTag('brand'));
    assert.equal(deployment.containers[0]!.image, migration.containers[0]!.image);
    assert.deepEqual(container!.env, [{ name: 'DATABASE_URL', value: 'postgresql://db/raly_x' }]);
    assert.deepEqual(container!.securityContext, migration.containers[0]!.securityContext);
  });

  test('when a pod says runAsNonRoot without a user, then its run options are refused', () => {
    // Arrange
    const pod = { securityContext: { runAsNonRoot: true }, containers: [{ name: 'x' }] };

    // Act & Assert
    assert.throws(() => securityOptions(pod), /runAsNonRoot/);
  });

  test('when each app gets a check port, then they are distinct and none is an app port of the stack', () => {
    // Act
    const portsInUse = imageApps.map((app) => checkPort(app, 4650));

    // Assert
    assert.equal(new Set(portsInUse).size, imageApps.length);
    assert.ok(
      portsInUse.every((port) => port >= 4650 && port <= 4658),
      portsInUse.join(','),
    );
  });

  test("when Node's CHANGELOG is read, then the npm of the pinned release is the newest at or below its heading", () => {
    // Arrange
    const changelog = [
      '<a id="24.21.0"></a>',
      '## 24.21.0',
      '* nothing about npm',
      '<a id="24.20.0"></a>',
      '* **deps**: upgrade npm to 11.19.0',
      '* **deps**: upgrade npm to 11.18.0',
      '<a id="24.19.0"></a>',
    ].join('\n');

    // Act & Assert
    assert.equal(bundledNpmVersion(changelog, '24.21.0'), '11.19.0');
    assert.throws(() => bundledNpmVersion(changelog, '23.0.0'), /no npm version/);
  });

  test("when apt's sources are read, then the base image's mirror is the Debian archive", () => {
    assert.match(debianMirror(), /^https?:\/\/\S+\/debian$/);
  });

  test('when the Dockerfiles are read, then their base images are build arguments the local base can replace', () => {
    for (const app of imageApps) {
      const workspace = app === 'bff' || app === 'web' ? app : `services/${app}`;
      const dockerfile = readFileSync(path.join(repository, workspace, 'Dockerfile'), 'utf8');
      const froms = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((match) => match[1]!);
      assert.ok(
        froms.every((image) => image.startsWith('${') || /^[a-z]+$/.test(image) === false),
        `${app}: ${froms.join(', ')}`,
      );
      assert.ok(froms.includes('${NODE_IMAGE}'), `${app}: FROM \${NODE_IMAGE}`);
    }
  });
});

const unavailable = podmanUnavailable();
const selected = (process.env.RALY_IMAGES_APPS ?? 'brand,web').trim();
const apps: ImageApp[] =
  selected === 'all' ? [...imageApps] : selected === 'none' ? [] : selected.split(',');
if (unavailable) console.log(`images not built: ${unavailable}`);

describe.skipIf(unavailable !== null || apps.length === 0)(
  'images built from the Dockerfiles',
  () => {
    for (const app of apps) {
      test(
        `when ${app}'s image is built and run as its Deployment runs it, then it answers its readiness and liveness probes`,
        async () => {
          // Act
          const buildMs = await buildAppImage(app);
          const check = await checkAppImage(app, { portBase });

          // Assert
          console.log(`${app}: built in ${(buildMs / 1000).toFixed(1)} s`, JSON.stringify(check));
          const { pod } = appManifest(app);
          const container = pod.containers[0]!;
          for (const probe of [container.readinessProbe, container.livenessProbe])
            assert.equal(check.probes[probe!.httpGet.path], 200, `${app} ${probe!.httpGet.path}`);
          assert.equal(check.uid, pod.securityContext?.runAsUser, `${app}: uid`);
          if (app !== 'bff' && app !== 'web') assert.ok((check.migrations ?? []).length > 0, app);
          const inspect = await podman([
            'image',
            'inspect',
            '--format',
            '{{.Config.User}}',
            imageTag(app),
          ]);
          assert.doesNotMatch(inspect.stdout.trim(), /^(|root|0)(:|$)/, `${app}: USER`);
        },
        45 * 60_000,
      );
    }
  },
);
