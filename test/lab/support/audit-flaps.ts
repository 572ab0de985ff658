/**
 * Flaps in the audit log: every completed write in a window that removed or changed one of a
 * node's published labels, set its condition to another status, changed its NodeValidation's
 * verdict or deleted it. Judged from the request bodies (the control plane must log writes to
 * nodes and nodevalidations at level Request: `auditRequestBodies`), so a flap that was undone a
 * moment later, and that no poll of the Node could have seen, still counts.
 *
 * The audit log does not record a patch's content type. A list in a patch of `status.conditions`
 * is read as a strategic merge (keyed by `type`, what the agent and the kubelet send): an entry
 * for the condition with another status is a flap, an absent entry is not. A JSON merge patch
 * that replaced the whole list without the condition would be missed here; the census after the
 * fault still sees the end state.
 */
import type { AuditEvent } from '../controlplane/audit.ts';

/** What the node published before the window: the flap is any write that departs from it. */
export interface PublishedBefore {
  nodeName: string;
  /** Labels under this prefix are judged (`virtgate.io`). */
  prefix: string;
  /** The node's labels under `prefix`, key → value. */
  labels: Record<string, string>;
  conditionType: string;
  /** The condition's status before the window (`True`/`False`). */
  conditionStatus: string;
  /** The NodeValidation's verdict before the window. */
  report: { group: string; resource: string; ready: boolean; tier: string };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `/metadata/labels/virtgate.io~1ready` → `['metadata', 'labels', 'virtgate.io/ready']` */
const pointer = (path: string) =>
  path
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));

function succeeded(event: AuditEvent): boolean {
  const code = event.responseStatus?.code ?? 0;
  return code >= 200 && code < 300;
}

function describe(event: AuditEvent): string {
  const resource = `${event.objectRef?.resource ?? '?'}${event.objectRef?.subresource ? `/${event.objectRef.subresource}` : ''}`;
  return `${event.verb} ${resource} by ${event.user.username} at ${event.requestReceivedTimestamp}`;
}

export function flapsIn(events: readonly AuditEvent[], before: PublishedBefore): string[] {
  const flaps: string[] = [];
  const ownKey = (key: string) => key.startsWith(`${before.prefix}/`);

  /** A map of labels as sent: `whole` when it replaces the node's labels (an update, a replace). */
  const judgeLabels = (labels: unknown, whole: boolean, event: AuditEvent) => {
    if (labels === null) {
      for (const key of Object.keys(before.labels)) flaps.push(`label ${key} removed (labels set to null): ${describe(event)}`);
      return;
    }
    if (!isObject(labels)) return;
    const replaces = whole || labels.$patch === 'replace';
    for (const [key, value] of Object.entries(labels)) {
      if (!ownKey(key)) continue;
      if (value === null) flaps.push(`label ${key} removed: ${describe(event)}`);
      else if (value !== before.labels[key]) flaps.push(`label ${key}=${String(value)} (was ${before.labels[key] ?? 'absent'}): ${describe(event)}`);
    }
    if (replaces) {
      for (const key of Object.keys(before.labels)) if (!(key in labels)) flaps.push(`label ${key} removed (labels replaced): ${describe(event)}`);
    }
  };

  const judgeCondition = (condition: unknown, event: AuditEvent) => {
    if (!isObject(condition) || condition.type !== before.conditionType) return;
    if (condition.$patch === 'delete') flaps.push(`condition ${before.conditionType} removed: ${describe(event)}`);
    else if ('status' in condition && condition.status !== before.conditionStatus) {
      flaps.push(`condition ${before.conditionType}=${String(condition.status)} (was ${before.conditionStatus}): ${describe(event)}`);
    }
  };

  const judgeConditions = (conditions: unknown, whole: boolean, event: AuditEvent) => {
    if (conditions === null) {
      flaps.push(`condition ${before.conditionType} removed (conditions set to null): ${describe(event)}`);
      return;
    }
    if (!Array.isArray(conditions)) return;
    for (const condition of conditions) judgeCondition(condition, event);
    if (whole && !conditions.some((c) => isObject(c) && c.type === before.conditionType)) {
      flaps.push(`condition ${before.conditionType} removed (conditions replaced): ${describe(event)}`);
    }
  };

  const judgeVerdict = (status: unknown, event: AuditEvent) => {
    if (status === null) {
      flaps.push(`NodeValidation status removed: ${describe(event)}`);
      return;
    }
    if (!isObject(status)) return;
    if ('ready' in status && status.ready !== before.report.ready) flaps.push(`NodeValidation ready=${String(status.ready)} (was ${before.report.ready}): ${describe(event)}`);
    if ('tier' in status && status.tier !== before.report.tier) flaps.push(`NodeValidation tier=${String(status.tier)} (was ${before.report.tier}): ${describe(event)}`);
  };

  for (const event of events) {
    const ref = event.objectRef;
    if (!ref || !succeeded(event)) continue;
    const isNode = ref.resource === 'nodes' && !ref.apiGroup;
    const isReport = ref.resource === before.report.resource && ref.apiGroup === before.report.group;
    if (!isNode && !isReport) continue;
    if (event.verb === 'deletecollection') {
      flaps.push(`every ${ref.resource} deleted: ${describe(event)}`);
      continue;
    }
    if (ref.name !== before.nodeName || !['update', 'patch', 'delete'].includes(event.verb)) continue;
    if (event.verb === 'delete') {
      flaps.push(`${isNode ? 'Node' : 'NodeValidation'} ${ref.name} deleted: ${describe(event)}`);
      continue;
    }
    const body = event.requestObject;
    if (body === undefined) {
      // Without the body nothing can be judged: the run must not pass for want of evidence.
      flaps.push(`a write without its body in the audit log (the policy must log it at level Request): ${describe(event)}`);
      continue;
    }
    const whole = event.verb === 'update';
    if (Array.isArray(body)) {
      // JSON Patch: each operation's path says what it touches.
      for (const operation of body) {
        if (!isObject(operation) || typeof operation.path !== 'string') continue;
        const [first, second, third, fourth] = pointer(operation.path);
        const removes = operation.op === 'remove';
        const value = removes ? null : operation.value;
        if (isNode && first === 'metadata' && second === 'labels') {
          if (third === undefined) judgeLabels(value, true, event);
          else if (ownKey(third)) judgeLabels({ [third]: value ?? null }, false, event);
        } else if (isNode && first === 'metadata' && second === undefined && isObject(value)) {
          judgeLabels(value.labels ?? null, true, event);
        } else if (isNode && first === 'status' && second === 'conditions') {
          if (third === undefined) judgeConditions(value, true, event);
          else if (fourth === undefined && removes) flaps.push(`a condition removed by index (cannot tell which): ${describe(event)}`);
          else if (fourth === undefined) judgeCondition(value, event);
          else if (fourth === 'status') flaps.push(`a condition's status replaced by index (cannot tell which): ${describe(event)}`);
        } else if (isReport && first === 'status') {
          if (second === undefined) judgeVerdict(value, event);
          else if (second === 'ready' || second === 'tier') judgeVerdict({ [second]: value }, event);
        }
      }
      continue;
    }
    if (!isObject(body)) continue;
    if (isNode && ref.subresource !== 'status' && isObject(body.metadata) && 'labels' in body.metadata) judgeLabels(body.metadata.labels, whole, event);
    if (isNode && ref.subresource !== 'status' && whole && isObject(body.metadata) && !('labels' in body.metadata)) judgeLabels(null, true, event);
    if (isNode && ref.subresource === 'status' && isObject(body.status) && 'conditions' in body.status) judgeConditions(body.status.conditions, whole, event);
    if (isReport && 'status' in body) judgeVerdict(body.status, event);
  }
  return flaps;
}
