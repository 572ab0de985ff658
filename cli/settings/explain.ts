import { z } from 'zod';
import { AGGREGATOR_SETTINGS } from '../../aggregator/config.ts';
import { clientKubeconfigSetting, contextSetting, jsonSetting } from '../../core/settings/common.ts';
import { instant } from '../../core/settings/parsers.ts';
import { type ConfigOf, defineSettings, pick, setting } from '../../core/settings/table.ts';

/** `virtgate explain` settings: which VM, where to read it, and the aggregator's reading rules for reports. */
export const EXPLAIN_SETTINGS = {
  namespace: setting({ flag: '-n, --namespace <namespace>', help: "the VM's namespace (default: the kubeconfig context's, else default)", schema: z.string().min(1).max(63).optional() }),
  file: setting({ flag: '-f, --file <path>', help: 'explain a VirtualMachine or VirtualMachineInstance from a YAML or JSON file (not yet created): will it run, and where', schema: z.string().min(1).optional() }),
  kubeconfig: clientKubeconfigSetting,
  context: contextSetting,
  json: jsonSetting('print the explanation as JSON (kind ExplainResult)'),
  nodes: setting({ flag: '--nodes', help: 'also list every node with each requirement it fails (the table groups them)', schema: z.boolean(), default: false }),
  ...pick(AGGREGATOR_SETTINGS, ['prefix', 'staleAfterSeconds', 'requestTimeoutSeconds']),
  now: setting({ flag: '--now <time>', help: 'testing only: judge report freshness as of this time', schema: z.date().optional(), parse: instant, hidden: true }),
};

export const explainSettings = defineSettings(EXPLAIN_SETTINGS);

export type ExplainSettings = ConfigOf<typeof EXPLAIN_SETTINGS>;
