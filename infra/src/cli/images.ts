/**
 * `npm run images [-- options]`: builds the apps' images from their Dockerfiles with Podman on
 * local Debian base images, then runs each as its Deployment in k8s/base runs it against the
 * running local stack and checks its probes (docs/images.md). Needs root, Podman, runc and
 * debootstrap; never starts or stops the stack.
 *
 * Options:
 *   --only <app,app>   these apps only (default: every app; names as in k8s/base/apps)
 *   --no-check         build only
 *   --no-cache         build without Podman's layer cache
 *   --rebuild-base     make the base images again
 *   --port-base <n>    the checks' ports: n (BFF) … n+7 (moderation), n+8 (web); default 4650
 *   --play <overlay>   then `podman kube play` each app's pods from k8s/overlays/<overlay> (e.g.
 *                      dev): a service's migration Job pod on a fresh database, which must exit 0,
 *                      then its Deployment pod until it is ready (infra/src/images/kube-play.ts)
 */
import { parseArgs } from 'node:util';
import {
  buildAppImage,
  checkAppImage,
  imageApps,
  imageTag,
  type ImageApp,
} from '../images/app-images';
import { ensureNginxImage, ensureNodeImage } from '../images/base-images';
import { playAppPod } from '../images/kube-play';
import { podmanUnavailable } from '../images/podman';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    'no-check': { type: 'boolean', default: false },
    'no-cache': { type: 'boolean', default: false },
    'rebuild-base': { type: 'boolean', default: false },
    'port-base': { type: 'string', default: '4650' },
    play: { type: 'string' },
  },
});
const apps = values.only
  ? values.only.split(',').map((app) => app.trim() as ImageApp)
  : [...imageApps];
const unknown = apps.filter((app) => !imageApps.includes(app));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

try {
  if (unknown.length > 0) throw new Error(`unknown apps: ${unknown.join(', ')}`);
  const unavailable = podmanUnavailable();
  if (unavailable) throw new Error(unavailable);
  let started = Date.now();
  console.log(`base image ${await ensureNodeImage(values['rebuild-base'])}`);
  if (apps.includes('web'))
    console.log(`base image ${await ensureNginxImage(values['rebuild-base'])}`);
  console.log(`base images ready in ${seconds(Date.now() - started)}`);
  for (const app of apps) {
    const took = await buildAppImage(app, { echo: true, noCache: values['no-cache'] });
    console.log(`built ${imageTag(app)} in ${seconds(took)}`);
  }
  if (!values['no-check']) {
    for (const app of apps) {
      started = Date.now();
      const check = await checkAppImage(app, { portBase: Number(values['port-base']) });
      const probes = Object.entries(check.probes)
        .map(([probe, status]) => `${probe} ${status}`)
        .join(', ');
      const migrations = check.migrations ? `, ${check.migrations.length} migrations applied` : '';
      console.log(
        `${app}: uid ${check.uid}${migrations}, ${probes} (${seconds(Date.now() - started)})`,
      );
    }
  }
  if (values.play) {
    for (const app of apps) {
      started = Date.now();
      const played = await playAppPod(app, {
        overlay: values.play,
        portBase: Number(values['port-base']),
      });
      const answered = Object.entries(played.probes)
        .map(([probe, status]) => `${probe} ${status}`)
        .join(', ');
      const migrated = played.migrations
        ? `migration Job pod exited 0 (${played.migrations.length} migrations), `
        : '';
      console.log(
        `${app}: ${migrated}pod of k8s/overlays/${values.play} ready, ${answered} (${seconds(Date.now() - started)})`,
      );
    }
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
