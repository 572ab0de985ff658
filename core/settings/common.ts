import { z } from 'zod';
import { DEFAULT_PREFIX, isValidPrefix } from '../kube/names.ts';
import { durationSeconds, port } from './parsers.ts';
import { setting } from './table.ts';

/** Settings several programs share; each program picks them into its own table. */

export const prefixSchema = z.string().refine(isValidPrefix, 'must be a DNS subdomain outside kubevirt.io, kubernetes.io and k8s.io');

export function prefixSetting(help: string) {
  return setting({ flag: '--prefix <domain>', help, schema: prefixSchema, default: DEFAULT_PREFIX, env: 'VIRTGATE_PREFIX' });
}

export const logLevelSetting = setting({
  flag: '--log-level <level>',
  help: 'fatal | error | warn | info | debug | trace',
  schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']),
  default: 'info',
  env: 'VIRTGATE_LOG_LEVEL',
});

export function portSetting(help: string) {
  return setting({ flag: '--port <port>', help, schema: z.number().int().min(0).max(65_535), parse: port, default: 8080 });
}

export const bindAddressSetting = setting({ flag: '--bind-address <address>', help: 'HTTP bind address', schema: z.string().min(1), default: '0.0.0.0' });

/** The in-cluster programs: a ServiceAccount first. */
export const inClusterKubeconfigSetting = setting({
  flag: '--kubeconfig <path>',
  help: 'kubeconfig (default: in-cluster ServiceAccount, then KUBECONFIG)',
  schema: z.string().optional(),
});

/** The commands run from a workstation or CI: kubectl's order. */
export const clientKubeconfigSetting = setting({
  flag: '--kubeconfig <path>',
  help: 'kubeconfig file (default: KUBECONFIG, then ~/.kube/config, then the in-cluster ServiceAccount, as kubectl)',
  schema: z.string().optional(),
});

export const contextSetting = setting({
  flag: '--context <name>',
  help: 'the kubeconfig context to use (default: its current-context)',
  schema: z.string().optional(),
});

/**
 * One API request's timeout for the programs that list the whole cluster (aggregator, gate,
 * prune): 30 s, so a paged list of thousands of nodes or NodeValidations on a busy API server is
 * not cut off. The agent only reads and writes its own Node and keeps a shorter one.
 */
export function requestTimeoutSetting(defaultSeconds: number, defaultText: string) {
  return setting({
    flag: '--request-timeout <duration>',
    help: 'timeout of one API request',
    schema: z.number().min(1).max(300),
    parse: durationSeconds,
    default: defaultSeconds,
    defaultText,
  });
}

export const CLUSTER_REQUEST_TIMEOUT = requestTimeoutSetting(30, '30s');

export function jsonSetting(help: string) {
  return setting({ flag: '--json', help, schema: z.boolean(), default: false });
}
