import type { NodeModel } from './node.ts';
import type { ReportParse } from '../../core/report/read.ts';

/**
 * What the aggregator hands the pure gate: the objects as the API server returned them, typed
 * `unknown` on purpose. Informers may pass client-node class instances (V1Node) or plain JSON;
 * custom resources arrive as plain JSON. The gate narrows every one of them and never throws.
 */

/** The result of listing a custom resource whose CRD may not exist. */
export type CustomResourceObservation =
  /** The CRD is not installed (the API group/resource is not served). */
  | { state: 'crd-absent' }
  /** The CRD exists; `items` are the objects listed (none: the CR is absent). */
  | { state: 'listed'; items: readonly unknown[] }
  /** Could not tell: not synced yet, forbidden, the watch is broken. `reason` is shown to users. */
  | { state: 'unknown'; reason: string };

export interface ClusterSnapshot {
  /** `gitVersion` from GET /version, e.g. `v1.35.2` or `v1.35.2-eks-4f2a9b1`. */
  serverGitVersion: unknown;
  /** Every Node. */
  nodes: readonly unknown[];
  /** Every NodeValidation (virtgate.io/v1alpha1, cluster-scoped). */
  nodeValidations: readonly unknown[];
  /** KubeVirt objects (kubevirt.io/v1 KubeVirt, all namespaces). */
  kubevirt: CustomResourceObservation;
  /** CDI objects (cdi.kubevirt.io/v1beta1 CDI, cluster-scoped). */
  cdi: CustomResourceObservation;
  /**
   * VirtualMachineInstances (kubevirt.io/v1, all namespaces), raw or projected (model/vmi.ts);
   * absent when the caller does not read them (the migration check then cannot count VMs).
   */
  vmis?: CustomResourceObservation;
}

/**
 * A snapshot whose Nodes and NodeValidations are already narrowed, one object at a time: the
 * aggregator narrows each object once, when its watch event arrives, instead of narrowing all
 * of them again on every recompute. `parseSnapshot` narrows a ClusterSnapshot into the same thing,
 * so both paths reach the gate through one function (model/cluster.ts `modelOf`).
 */
export interface ParsedSnapshot extends Omit<ClusterSnapshot, 'nodes' | 'nodeValidations'> {
  /** Every Node through `parseNode`; null for a Node without a usable name. */
  nodes: readonly (NodeModel | null)[];
  /** Every NodeValidation through `readReport`. */
  reports: readonly ReportParse[];
}
