// Generated from aggregator/gate/rules.ts by `npm run generate:gate-ids`: do not edit.
/** Stable gate check ids, in the gate's order: the JSON, the metrics and the page use them (docs/gate.md). */
export const TUPLE_CHECK_IDS = [
  'tuple.kubernetes-supported',
  'tuple.kubernetes-eol',
  'tuple.cdi-paired',
  'tuple.data-fresh',
] as const;

export const GATE_CHECK_IDS = [
  ...TUPLE_CHECK_IDS,
  'kubevirt.deployed',
  'kubevirt.emulation-consistent',
  'kubevirt.confidential',
  'kubevirt.placement',
  'kubevirt.host-devices',
  'nodes.min-ready',
  'nodes.runtime',
  'nodes.migration-pairs',
  'nodes.kernel-userland',
  'nodes.reports-fresh',
  'cluster.privileged',
] as const;
