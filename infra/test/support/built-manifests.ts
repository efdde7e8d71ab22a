/**
 * Every object of `kubectl kustomize k8s/overlays/<dev|production>` (kustomize.ts), each with
 * its overlay, and the views the deployment tests read: the apps of k8s/base/apps, their
 * Deployments, pod templates and containers.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import {
  buildOverlay,
  k8sDir,
  overlayNames,
  type K8sObject as BuiltObject,
  type OverlayName,
} from './kustomize';

/** A built object and the overlay it comes from. */
export interface K8sObject extends BuiltObject {
  overlay: OverlayName;
}

export interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: Record<string, unknown> }[];
  envFrom?: Record<string, unknown>[];
  securityContext?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
}

export interface Probe {
  httpGet?: { path: string; port: string | number };
  tcpSocket?: { port: string | number };
  exec?: { command: string[] };
}

const baseAppsDir = path.join(k8sDir, 'base', 'apps');
/** The apps: one manifest each in k8s/base/apps, named after the app. */
export const appNames = readdirSync(baseAppsDir)
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => path.basename(file, '.yaml'))
  .sort();
export const isApp = (object: K8sObject) => appNames.includes(object.metadata.name);

export const objects: K8sObject[] = overlayNames.flatMap((overlay) =>
  buildOverlay(overlay).map((object) => ({ ...object, overlay })),
);
export const ofKind = (kind: string, overlay?: OverlayName) =>
  objects.filter((object) => object.kind === kind && (!overlay || object.overlay === overlay));
export const deployments = ofKind('Deployment');
export const appDeployments = deployments.filter(isApp);
/** The app Deployments of one overlay (the Dockerfiles are checked once per app). */
export const baseAppDeployments = appDeployments.filter(
  (deployment) => deployment.overlay === 'dev',
);
export const podTemplateOwners = [...deployments, ...ofKind('StatefulSet')];
/** A generated name (`raly-config-5f7h…`) back to the name in the manifests. */
export const baseName = (name: string) => name.replace(/-[a-z0-9]{10}$/, '');

export const podSpecOf = (object: K8sObject) => object.spec.template.spec;
export const containersOf = (object: K8sObject): Container[] => [
  ...(podSpecOf(object).initContainers ?? []),
  ...podSpecOf(object).containers,
];
