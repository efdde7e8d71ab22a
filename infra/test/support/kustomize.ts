/**
 * The k8s/ overlays as the cluster would receive them: `kubectl kustomize k8s/overlays/<name>`,
 * parsed into objects, built on the repository's own k8s/ as a newcomer's first command would be
 * (a fresh clone in CI). Nothing is applied to a cluster.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export const repository = path.resolve(import.meta.dirname, '..', '..', '..');
export const k8sDir = path.join(repository, 'k8s');

/** The overlays of k8s/overlays. */
export const overlayNames = ['dev', 'production'] as const;
export type OverlayName = (typeof overlayNames)[number];

/** A Kubernetes object as built: only the fields the checks read are typed. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    generateName?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- each kind has its own spec
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  type?: string;
  automountServiceAccountToken?: boolean;
}

/**
 * Builds one overlay with the kubectl on PATH (its embedded kustomize).
 * @returns every object of the build, in kustomize's order
 * @throws Error with kustomize's message when the build fails
 */
export function buildOverlay(name: OverlayName): K8sObject[] {
  const output = execFileSync('kubectl', ['kustomize', path.join(k8sDir, 'overlays', name)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return parseAllDocuments(output).map((document) => {
    if (document.errors.length > 0) throw new Error(document.errors.join('; '));
    return document.toJS() as K8sObject;
  });
}

/** @returns the objects of `kind` (and `apiVersion` when given) */
export const ofKind = (objects: K8sObject[], kind: string, apiVersion?: string) =>
  objects.filter(
    (object) =>
      object.kind === kind && (apiVersion === undefined || object.apiVersion === apiVersion),
  );

/** @returns whether every `selector` label has its value in `labels` */
export const selects = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

/**
 * A label selector (`matchLabels` and `matchExpressions` with In, NotIn, Exists, DoesNotExist).
 * @returns whether it selects an object with `labels`; the empty selector selects everything
 */
export function labelSelectorMatches(
  selector: {
    matchLabels?: Record<string, string>;
    matchExpressions?: { key: string; operator: string; values?: string[] }[];
  },
  labels: Record<string, string> = {},
): boolean {
  if (!selects(selector.matchLabels ?? {}, labels)) return false;
  return (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    const value = labels[key];
    switch (operator) {
      case 'In':
        return value !== undefined && values.includes(value);
      case 'NotIn':
        return value === undefined || !values.includes(value);
      case 'Exists':
        return value !== undefined;
      case 'DoesNotExist':
        return value === undefined;
      default:
        throw new Error(`unknown selector operator ${operator}`);
    }
  });
}

/** The pod template of a workload (Deployment, StatefulSet, Job), or undefined. */
export const podTemplateOf = (object: K8sObject) =>
  object.spec?.template as
    { metadata?: { labels?: Record<string, string> }; spec: any } | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
