import { canRunVms } from '../readiness/sort.ts';
import type { AssessedNode } from '../readiness/assess-node.ts';
import { sameItems } from '../../core/same-items.ts';

/**
 * Live-migration targets, per ready node. KubeVirt's default CPU model is `host-model`: a VM
 * started on node A gets A's CPU, so it can only move to a node of the same vendor that can run
 * that CPU. The kernel's virtio-net USO offer (6.2 and later) must match as well: QEMU refuses the
 * device state of a USO host on a host without it (kubevirt/kubevirt#16386), so a 6.8 node and a
 * 5.14 node are not partners either way. No clock, no I/O; same input, same output. Not pure in
 * the strict sense: feature sets, profiles and the last plan are memoized in module-level caches
 * keyed by the input objects' identity (below), because at 100,000 nodes rebuilding them on each
 * recompute was most of its time and heap. That is sound only because the aggregator replaces a
 * narrowed object when it changes and never edits one in place; a caller that mutates an input
 * would get the answer for its old content.
 *
 * Features come from KubeVirt's own node labels when both nodes of a pair have them (see
 * `labelProfile`), else from both nodes' NodeValidation reports (`status.cpuFeatures`, where a
 * target needs a superset of the source's list). The two sources name features differently
 * (libvirt's `sse4.1` is cpuinfo's `sse4_1`), so a pair is only ever compared within one source.
 * A pair with no source in common (a report from an agent older than `cpuFeatures`, no KubeVirt)
 * is compared by vendor and kernel only: it counts as a target, and as `unverified`, so an upgrade
 * does not strand every node until the agents catch up.
 */

/**
 * The node labels virt-handler's node-labeller writes (KubeVirt v1.9.0,
 * pkg/virt-handler/node-labeller/node_labeller.go), each with the value "true":
 * - `cpu-feature.node.kubevirt.io/<f>`: every feature of the node's host-model CPU, expanded
 *   (`virsh hypervisor-cpu-baseline --features`, policy `require`), libvirt's names;
 * - `host-model-cpu.node.kubevirt.io/<model>`: the named model the host-model CPU is based on;
 * - `host-model-required-features.node.kubevirt.io/<f>`: the features host-model adds to it;
 * - `cpu-model-migration.node.kubevirt.io/<model>`: every model libvirt knows on the node, usable
 *   or not (the models a host-model VM based on them may migrate to);
 * - `cpu-vendor.node.kubevirt.io/<Vendor>`: libvirt's vendor name (`Intel`, `AMD`).
 * None of them on arm64 (the labeller has no host model there).
 */
export const CPU_FEATURE_LABEL = 'cpu-feature.node.kubevirt.io/';
export const HOST_MODEL_LABEL = 'host-model-cpu.node.kubevirt.io/';
export const HOST_MODEL_REQUIRED_FEATURE_LABEL = 'host-model-required-features.node.kubevirt.io/';
export const MIGRATION_CPU_MODEL_LABEL = 'cpu-model-migration.node.kubevirt.io/';
export const CPU_VENDOR_LABEL = 'cpu-vendor.node.kubevirt.io/';

/** Vendors whose CPUs can host each other's migrating VMs; "other" and unknown are never paired. */
const KNOWN_VENDORS = new Set(['intel', 'amd', 'hygon', 'arm']);

export type FeatureSource = 'kubevirt-labels' | 'report';

/** What a node's VMs need of a target, and what the node offers as a target, in one feature source. */
export interface FeatureProfile {
  needs: ReadonlySet<string>;
  offers: ReadonlySet<string>;
}

interface Profile {
  name: string;
  vendor: string | null;
  /** null when the kernel is unknown. */
  usoOffer: boolean | null;
  kernel: string | null;
  labels: FeatureProfile | null;
  report: FeatureProfile | null;
}

export interface NodeMigration {
  name: string;
  vendor: string | null;
  /** Where this node's features came from for its comparisons; null when it has none. */
  source: FeatureSource | null;
  targetCount: number;
  /** Targets whose CPU features could not be compared (vendor and kernel match; no common feature source). */
  unverifiedTargets: number;
  /** A few of the targets (at most 10), sorted. */
  targets: string[];
  /** Why the node has no target (empty when it has one). */
  lacks: string;
  /** The same-vendor node closest to being a target, and what it lacks; null when there is none. */
  nearest: { name: string; missing: string[] } | null;
}

export interface MigrationPlan {
  /** Every ready node, by name. */
  nodes: NodeMigration[];
  stranded: NodeMigration[];
}

const MAX_TARGETS_LISTED = 10;
const MAX_MISSING_LISTED = 20;

/** Kernels 6.2 and later offer virtio-net USO; `kernel` is `6.8`, or a full release `6.8.0-45-generic`. */
export function offersUso(kernel: string | null): boolean | null {
  const match = kernel === null ? null : /^(\d+)\.(\d+)/.exec(kernel);
  if (!match) return null;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  return major > 6 || (major === 6 && minor >= 2);
}

/**
 * KubeVirt's CPU labels as a migration profile; null when virt-handler has not labelled the node
 * with a host model (no KubeVirt, arm64, or not labelled yet). For a host-model VM, virt-controller
 * (pkg/virt-controller/watch/migration/migration.go, v1.9.0) gives the target pod the node selectors
 * `cpu-model-migration.node.kubevirt.io/<source host model>`, `cpu-feature.node.kubevirt.io/<f>`
 * for each of the source's `host-model-required-features`, and the source's `cpu-vendor` label; and
 * libvirt then refuses a target that lacks any feature of the source's CPU, so the source's whole
 * `cpu-feature` set is needed too. A different host model is therefore a partner when it still knows
 * the source's model (a Cascadelake node takes a Skylake node's VMs). Entries are feature names, and
 * `CPU model <m>` / `CPU vendor <v>` (libvirt names have no spaces, so they cannot collide).
 */
export function labelProfile(labels: Readonly<Record<string, string>>): FeatureProfile | null {
  const needs = new Set<string>();
  const offers = new Set<string>();
  let hostModel = false;
  // Sorted, so that what a node lacks is listed in the same order whatever order the labels came in.
  for (const [key, value] of Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (value !== 'true') continue;
    if (key.startsWith(CPU_FEATURE_LABEL)) {
      const feature = key.slice(CPU_FEATURE_LABEL.length);
      needs.add(feature);
      offers.add(feature);
    } else if (key.startsWith(HOST_MODEL_REQUIRED_FEATURE_LABEL)) {
      needs.add(key.slice(HOST_MODEL_REQUIRED_FEATURE_LABEL.length));
    } else if (key.startsWith(HOST_MODEL_LABEL)) {
      hostModel = true;
      needs.add(`CPU model ${key.slice(HOST_MODEL_LABEL.length)}`);
    } else if (key.startsWith(MIGRATION_CPU_MODEL_LABEL)) {
      offers.add(`CPU model ${key.slice(MIGRATION_CPU_MODEL_LABEL.length)}`);
    } else if (key.startsWith(CPU_VENDOR_LABEL)) {
      const vendor = `CPU vendor ${key.slice(CPU_VENDOR_LABEL.length)}`;
      needs.add(vendor);
      offers.add(vendor);
    }
  }
  return hostModel ? { needs, offers } : null;
}

interface FeatureSet {
  profile: FeatureProfile | null;
  /** Equal keys, equal profiles: what groups nodes (short: it is part of every node's group key). */
  key: string;
}

/**
 * Nodes and reports are narrowed once, when they arrive, and kept as the same objects until they
 * change: their feature sets are cached per object, so a recompute does not rebuild 5,000 sets.
 */
const fromReports = new WeakMap<readonly string[], FeatureSet>();
const fromLabels = new WeakMap<Readonly<Record<string, string>>, FeatureSet>();

/**
 * One shared FeatureSet per distinct list: a cluster has a few CPU kinds, and a set of ~100
 * features per node kept 100,000 times was most of the aggregator's heap at 100,000 nodes (and
 * its garbage collector's work). Bounded: past MAX_SHARED lists it starts over, which only shares less.
 */
const shared = new Map<string, FeatureSet>();
const MAX_SHARED = 10_000;
let nextKey = 0;

function cached<K extends object>(cache: WeakMap<K, FeatureSet>, source: K, build: () => FeatureProfile | null): FeatureSet {
  let entry = cache.get(source);
  if (!entry) {
    const profile = build();
    const content = profile === null ? '-' : `${[...profile.needs].join(',')}>${[...profile.offers].join(',')}`;
    entry = shared.get(content);
    if (!entry) {
      if (shared.size >= MAX_SHARED) shared.clear();
      entry = { profile, key: profile === null ? '-' : `#${(nextKey += 1)}` };
      shared.set(content, entry);
    }
    cache.set(source, entry);
  }
  return entry;
}

type KeyedProfile = Profile & { key: string };

/**
 * A node's profile, kept per (Node, report) pair: both are replaced, never changed, when their
 * objects change, so a recompute at 100,000 nodes does not build 100,000 group keys again.
 */
const profiles = new WeakMap<object, { node: AssessedNode['node']; profile: KeyedProfile }>();

function profileOf(item: AssessedNode): KeyedProfile {
  const vendor = item.readiness.cpuVendor;
  const kernel = item.readiness.kernel;
  const holder = item.report ?? item.node;
  const kept = profiles.get(holder);
  if (kept && kept.node === item.node && kept.profile.vendor === vendor && kept.profile.kernel === kernel) return kept.profile;
  const features = item.report?.cpuFeatures ?? null;
  const labels = cached(fromLabels, item.node.labels, () => labelProfile(item.node.labels));
  // A report's list is both: a target needs a superset of the source's features.
  const report = features === null ? { profile: null, key: '-' } : cached(fromReports, features, () => {
    const set = new Set(features);
    return { needs: set, offers: set };
  });
  const profile: KeyedProfile = {
    name: item.node.name,
    vendor,
    usoOffer: offersUso(kernel),
    kernel,
    labels: labels.profile,
    report: report.profile,
    key: [vendor ?? '?', kernel ?? '?', labels.key, report.key].join('|'),
  };
  profiles.set(holder, { node: item.node, profile });
  return profile;
}

/**
 * What `target` lacks to take `source`'s VMs (empty: it is a target); `compared` is false when
 * the two have no feature source in common, so only the kernel could be compared.
 */
function missingOn(source: Profile, target: Profile): { missing: string[]; compared: boolean } {
  const missing: string[] = [];
  if (source.usoOffer !== null && target.usoOffer !== null && source.usoOffer !== target.usoOffer) {
    missing.push(`virtio-net USO ${source.usoOffer ? 'offered' : 'not offered'} (kernel ${source.kernel} vs ${target.kernel})`);
  }
  const [from, to] = source.labels && target.labels ? [source.labels, target.labels] : source.report && target.report ? [source.report, target.report] : [null, null];
  if (from === null || to === null) return { missing, compared: false };
  for (const need of from.needs) if (!to.offers.has(need)) missing.push(need);
  return { missing, compared: true };
}

/** A group of nodes that compare identically: same vendor, kernel USO offer and feature sets. */
interface Group {
  profile: Profile;
  members: string[];
}

/**
 * The last plan and what it was made from. Between two recomputes usually only heartbeats change,
 * and a plan depends only on the ready nodes' names and profile keys, in order (equal keys, equal
 * profiles): when those are the same as last time, the last plan is the answer (same input, same
 * output), and 100,000 nodes cost one comparison each instead of a new plan that the next GC must
 * clear away.
 */
let last: { names: string[]; keys: string[]; plan: MigrationPlan } | null = null;

/**
 * Targets for every ready node. Nodes that compare identically are grouped first, so the work is
 * quadratic in the number of distinct CPU/kernel kinds, not in the number of nodes.
 */
export function migrationPlan(nodes: readonly AssessedNode[]): MigrationPlan {
  const names: string[] = [];
  const keyed: KeyedProfile[] = [];
  for (const item of nodes) {
    if (!canRunVms(item.readiness.state)) continue;
    names.push(item.node.name);
    keyed.push(profileOf(item));
  }
  const keys = keyed.map((profile) => profile.key);
  if (last !== null && sameItems(last.names, names) && sameItems(last.keys, keys)) return last.plan;
  const plan = planFor(names, keyed);
  last = { names, keys, plan };
  return plan;
}

function planFor(names: readonly string[], keyed: readonly KeyedProfile[]): MigrationPlan {
  const groups = new Map<string, Group>();
  const memberOf: Group[] = [];
  keyed.forEach((profile, index) => {
    const name = names[index] as string;
    let group = groups.get(profile.key);
    if (group) group.members.push(name);
    else groups.set(profile.key, (group = { profile, members: [name] }));
    memberOf.push(group);
  });
  const all = [...groups.values()];
  // Once per group, not per node: every member has the same targets, less itself.
  const shared = new Map<Group, GroupTargets>(all.map((group) => [group, groupTargets(group, all)]));
  // In the input's order (worst first, by name within a state), so the final sort by name only merges runs.
  const result = memberOf.map((group, index): NodeMigration => {
    const name = names[index] as string;
    const targets = shared.get(group) as GroupTargets;
    const migration: NodeMigration = {
      name,
      vendor: group.profile.vendor,
      source: group.profile.labels ? 'kubevirt-labels' : group.profile.report ? 'report' : null,
      targetCount: targets.total - (targets.ownIsTarget ? 1 : 0),
      unverifiedTargets: targets.unverifiedTotal - (targets.ownUnverified ? 1 : 0),
      // Most members are not among the first names: they share one list (nothing changes it later).
      targets: targets.firstNames.includes(name) ? firstOthers(targets.firstNames, name) : targets.firstTen,
      lacks: '',
      nearest: null,
    };
    if (migration.targetCount === 0) Object.assign(migration, explainStranded(group.profile, name, targets.vendorKnown, targets.compared));
    return migration;
  });
  const byName = [...result].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const plan = { nodes: byName, stranded: byName.filter((node) => node.targetCount === 0) };
  inputOrder.set(plan, result);
  return plan;
}

interface GroupTargets {
  vendorKnown: boolean;
  compared: Array<{ other: Group; missing: { missing: string[]; compared: boolean } }>;
  /** The first MAX_TARGETS_LISTED + 1 target names, sorted: enough to list ten that are not the node itself. */
  firstNames: string[];
  /** The first MAX_TARGETS_LISTED of them: the list of every member that is not among them. */
  firstTen: string[];
  total: number;
  unverifiedTotal: number;
  ownIsTarget: boolean;
  ownUnverified: boolean;
}

function groupTargets(group: Group, all: readonly Group[]): GroupTargets {
  const source = group.profile;
  const vendorKnown = source.vendor !== null && KNOWN_VENDORS.has(source.vendor);
  const sameVendor = vendorKnown ? all.filter((other) => other.profile.vendor === source.vendor) : [];
  const compared = sameVendor.map((other) => ({ other, missing: missingOn(source, other.profile) }));
  const targetGroups = compared.filter(({ missing }) => missing.missing.length === 0);
  const firstNames = targetGroups
    .flatMap(({ other }) => other.members.slice(0, MAX_TARGETS_LISTED + 1))
    .sort()
    .slice(0, MAX_TARGETS_LISTED + 1);
  return {
    vendorKnown,
    compared,
    firstNames,
    firstTen: firstNames.slice(0, MAX_TARGETS_LISTED),
    total: targetGroups.reduce((sum, { other }) => sum + other.members.length, 0),
    unverifiedTotal: targetGroups.filter(({ missing }) => !missing.compared).reduce((sum, { other }) => sum + other.members.length, 0),
    ownIsTarget: targetGroups.some(({ other }) => other === group),
    ownUnverified: targetGroups.some(({ other, missing }) => other === group && !missing.compared),
  };
}

/** The first MAX_TARGETS_LISTED names other than `name`. */
function firstOthers(sortedNames: readonly string[], name: string): string[] {
  const listed: string[] = [];
  for (const other of sortedNames) {
    if (other === name) continue;
    listed.push(other);
    if (listed.length === MAX_TARGETS_LISTED) break;
  }
  return listed;
}

function explainStranded(
  source: Profile,
  name: string,
  vendorKnown: boolean,
  compared: ReadonlyArray<{ other: Group; missing: { missing: string[]; compared: boolean } }>,
): Pick<NodeMigration, 'lacks' | 'nearest'> {
  if (!vendorKnown) return { lacks: `its CPU vendor is ${source.vendor ?? 'unknown'}, which is never paired`, nearest: null };
  const candidates = compared
    .flatMap(({ other, missing }) => other.members.filter((member) => member !== name).map((member) => ({ member, missing: missing.missing })))
    .sort((a, b) => a.missing.length - b.missing.length || (a.member < b.member ? -1 : 1));
  const best = candidates[0];
  if (best === undefined) return { lacks: `no other ready ${source.vendor} node`, nearest: null };
  const missing = best.missing.slice(0, MAX_MISSING_LISTED);
  const more = best.missing.length > missing.length ? ` and ${best.missing.length - missing.length} more` : '';
  return { lacks: `the nearest ${source.vendor} candidate ${best.member} lacks ${missing.join(', ')}${more}`, nearest: { name: best.member, missing } };
}

/** Each plan's nodes in the order of the ready nodes it was made from, for targetCounts. */
const inputOrder = new WeakMap<MigrationPlan, readonly NodeMigration[]>();

/**
 * Each node's live-migration target count, aligned with `nodes` (null where it cannot run VMs),
 * for summariseReadiness. `nodes` is what the plan was made from, so the ready ones meet the
 * plan's nodes in order: one walk, no 100,000-name map. A name out of step falls back to a lookup.
 */
export function targetCounts(plan: MigrationPlan, nodes: readonly AssessedNode[]): (number | null)[] {
  const ordered = inputOrder.get(plan) ?? [];
  let byName: Map<string, number> | undefined;
  let next = 0;
  return nodes.map((item) => {
    if (!canRunVms(item.readiness.state)) return null;
    const migration = ordered[next];
    next += 1;
    if (migration !== undefined && migration.name === item.node.name) return migration.targetCount;
    byName ??= new Map(plan.nodes.map((node) => [node.name, node.targetCount]));
    return byName.get(item.node.name) ?? null;
  });
}
