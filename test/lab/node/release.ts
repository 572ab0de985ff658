/**
 * The chart's release on the real node, as the node tests, the demo (`up.ts --chart`) and the
 * bench install it: `helm install` with only the image and pullPolicy values.
 */
import { type CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { waitFor } from '../support/wait.ts';
import type { BuiltImages } from './images.ts';
import { NODE_LAYOUT } from './layout.ts';

export const NS = `${NODE_LAYOUT.namespacePrefix}virtgate`;
export const RELEASE = 'virtgate';

/** The only values set: where the images are and that they are never pulled. */
export function imageValues(images: Pick<BuiltImages, 'agent' | 'aggregator'>): string[] {
  return (['agent', 'aggregator'] as const).flatMap((role) => [
    '--set', `${role}.image.repository=${images[role].repository}`,
    '--set', `${role}.image.tag=${images[role].tag}`,
    '--set', `${role}.image.pullPolicy=Never`,
  ]);
}

export function isReady(pod: V1Pod): boolean {
  return pod.status?.phase === 'Running' && (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

export async function podsOf(core: CoreV1Api, component: string): Promise<V1Pod[]> {
  const list = await core.listNamespacedPod({ namespace: NS, labelSelector: `app.kubernetes.io/component=${component}` });
  return list.items;
}

export async function readyPod(core: CoreV1Api, component: string, timeoutMs = 240_000): Promise<V1Pod> {
  return waitFor(`a Ready ${component} pod`, async () => (await podsOf(core, component)).find((p) => isReady(p) && !p.metadata?.deletionTimestamp), timeoutMs, 500);
}
