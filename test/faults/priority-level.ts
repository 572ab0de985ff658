/**
 * API Priority and Fairness, set up so the real API server answers 429: a priority level with no
 * seats of its own and no borrowing (it runs one request at a time, only when idle) and
 * `Reject` instead of queuing, a FlowSchema that puts the agent's ServiceAccount and a noisy
 * neighbour's into it, and the neighbour: one slow request always in flight (held by a slow
 * admission webhook) so that the agent's requests are rejected, plus cheap reads that are
 * rejected too, which is what makes the server raise its Retry-After.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  AdmissionregistrationV1Api,
  CoreV1Api,
  FlowcontrolApiserverV1Api,
  type KubeConfig,
  RbacAuthorizationV1Api,
} from '@kubernetes/client-node';
import type { ControlPlaneInfo } from '../lab/controlplane/control-plane.ts';
import { createServiceAccount } from '../lab/controlplane/identities.ts';
import { writeKubeconfig } from '../lab/controlplane/kubeconfig.ts';
import { statusOf } from '../lab/support/wait.ts';
import { sleep } from './settle.ts';

export const THROTTLE_NAMESPACE = 'fault-apf';
const NAME = 'fault-apf';
const SLOW_LABEL = 'fault.virtgate.io/slow';

async function ignoreConflict(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (error) {
    if (statusOf(error) !== 409) throw error;
  }
}

async function ignoreNotFound(remove: () => Promise<unknown>): Promise<void> {
  try {
    await remove();
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
  }
}

/**
 * Creates the priority level, the FlowSchema matching `serviceAccounts` (in THROTTLE_NAMESPACE)
 * and the neighbour, and the slow webhook's registration. Returns the priority level's uid (the
 * API server names it in every classified response) and a kubeconfig for the neighbour.
 */
export async function throttleServiceAccounts(
  admin: KubeConfig,
  info: Pick<ControlPlaneInfo, 'server' | 'caFile' | 'dir'>,
  serviceAccounts: string[],
  webhookUrl: string,
): Promise<{ priorityLevelUid: string; neighbourKubeconfig: string }> {
  const flow = admin.makeApiClient(FlowcontrolApiserverV1Api);
  const core = admin.makeApiClient(CoreV1Api);
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  await createServiceAccount(admin, THROTTLE_NAMESPACE, 'neighbour');
  await ignoreConflict(() =>
    rbac.createNamespacedRole({
      namespace: THROTTLE_NAMESPACE,
      body: { metadata: { name: 'neighbour' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'list'] }] },
    }),
  );
  await ignoreConflict(() =>
    rbac.createNamespacedRoleBinding({
      namespace: THROTTLE_NAMESPACE,
      body: {
        metadata: { name: 'neighbour' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'neighbour' },
        subjects: [{ kind: 'ServiceAccount', name: 'neighbour', namespace: THROTTLE_NAMESPACE }],
      },
    }),
  );
  const token = (await core.createNamespacedServiceAccountToken({ name: 'neighbour', namespace: THROTTLE_NAMESPACE, body: { spec: { audiences: [], expirationSeconds: 3600 } } })).status?.token;
  if (!token) throw new Error('no token for the neighbour');
  const neighbourKubeconfig = await writeKubeconfig(path.join(info.dir, 'fault-apf-neighbour.kubeconfig'), info.server, info.caFile, { token }, 'neighbour');

  const level = await flow.createPriorityLevelConfiguration({
    body: {
      metadata: { name: NAME },
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 0, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse: { type: 'Reject' } } },
    },
  });
  await flow.createFlowSchema({
    body: {
      metadata: { name: NAME },
      spec: {
        priorityLevelConfiguration: { name: NAME },
        // Before the built-in "service-accounts" schema (9000).
        matchingPrecedence: 100,
        distinguisherMethod: { type: 'ByUser' },
        rules: [
          {
            subjects: [...serviceAccounts, 'neighbour'].map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: THROTTLE_NAMESPACE, name } })),
            resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
          },
        ],
      },
    },
  });
  await admin.makeApiClient(AdmissionregistrationV1Api).createValidatingWebhookConfiguration({
    body: {
      metadata: { name: NAME },
      webhooks: [
        {
          name: 'slow.fault.virtgate.io',
          clientConfig: { url: webhookUrl, caBundle: (await readFile(info.caFile)).toString('base64') },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: 'Namespaced' }],
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': THROTTLE_NAMESPACE } },
          objectSelector: { matchLabels: { [SLOW_LABEL]: 'true' } },
          failurePolicy: 'Ignore',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          timeoutSeconds: 10,
        },
      ],
    },
  });
  return { priorityLevelUid: level.metadata?.uid ?? '', neighbourKubeconfig };
}

export async function removeThrottle(admin: KubeConfig): Promise<void> {
  const flow = admin.makeApiClient(FlowcontrolApiserverV1Api);
  await ignoreNotFound(() => admin.makeApiClient(AdmissionregistrationV1Api).deleteValidatingWebhookConfiguration({ name: NAME }));
  await ignoreNotFound(() => flow.deleteFlowSchema({ name: NAME }));
  await ignoreNotFound(() => flow.deletePriorityLevelConfiguration({ name: NAME }));
}

/** The noisy neighbour: keeps the priority level's one seat busy and adds rejected reads. */
export class NoisyNeighbour {
  private readonly core: CoreV1Api;
  private stopped = false;
  private loops: Array<Promise<void>> = [];
  held = 0;
  rejected = 0;

  constructor(kc: KubeConfig) {
    this.core = kc.makeApiClient(CoreV1Api);
  }

  /** `readsPerSecond` rejected reads raise the server's Retry-After (it grows with the rejections it sees). */
  start(readsPerSecond: number): void {
    this.loops = [this.holdSeat(), this.read(readsPerSecond)];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private async holdSeat(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.core.createNamespacedConfigMap({
          namespace: THROTTLE_NAMESPACE,
          body: { metadata: { generateName: 'slow-', labels: { [SLOW_LABEL]: 'true' } } },
        });
        this.held += 1;
      } catch (error) {
        // The agent held the seat for a moment: try again at once.
        if (statusOf(error) !== 429) throw error;
        await sleep(10);
      }
    }
  }

  private async read(perSecond: number): Promise<void> {
    while (!this.stopped) {
      try {
        await this.core.listNamespacedConfigMap({ namespace: THROTTLE_NAMESPACE, limit: 1 });
      } catch (error) {
        if (statusOf(error) !== 429) throw error;
        this.rejected += 1;
      }
      await sleep(1000 / perSecond);
    }
  }
}
