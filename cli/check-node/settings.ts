import { z } from 'zod';
import { VIRTGATE_VERSION } from '../../core/package-info.ts';
import { clientKubeconfigSetting, contextSetting } from '../../core/settings/common.ts';
import { durationSetting } from '../../core/settings/duration.ts';
import { type ConfigOf, defineSettings, setting } from '../../core/settings/table.ts';

/** The chart's agent image of this version: what `--node` runs unless told otherwise. */
export const DEFAULT_CHECK_IMAGE = `ghcr.io/virtgate/virtgate-agent:${VIRTGATE_VERSION}`;

/** `virtgate check --node`: run the check on a cluster node, in a one-off pod. The other check flags are passed on to it. */
export const CHECK_NODE_SETTINGS = {
  node: setting({ flag: '--node <name>', help: 'run the check on this cluster node instead, in a one-off privileged pod that is deleted afterwards', schema: z.string().min(1).optional() }),
  kubeconfig: clientKubeconfigSetting,
  context: contextSetting,
  image: setting({ flag: '--image <image>', help: 'with --node: the agent image the pod runs', schema: z.string().min(1), default: DEFAULT_CHECK_IMAGE }),
  namespace: setting({ flag: '--namespace <namespace>', help: 'with --node: the namespace of the pod (it must admit privileged pods)', schema: z.string().min(1), default: 'default' }),
  timeoutSeconds: durationSetting({ flag: '--timeout <duration>', help: 'with --node: delete the pod and give up after this long', default: '2m', min: '5s', max: '1h' }),
};

export const checkNodeSettings = defineSettings(CHECK_NODE_SETTINGS);

export type CheckNodeSettings = ConfigOf<typeof CHECK_NODE_SETTINGS>;
