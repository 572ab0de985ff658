import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { apiFailure } from '../core/kube/api-error.ts';
import { backoffDelay, DEFAULT_BACKOFF } from '../core/kube/backoff.ts';
import type { CanaryApi, Listed } from './canary-api.ts';
import type { VmiView } from './outcome.ts';
import { CREATED_BY_LABEL, RUN_LABEL } from './vmi.ts';

interface Named {
  metadata?: { name?: string; uid?: string; labels?: Record<string, string>; deletionTimestamp?: unknown };
}

/**
 * One run's VMIs and their virt-launcher pods as the API server last said, kept current by a LIST
 * and then a WATCH of each kind in the canary's namespace (a watch that ends is listed and opened
 * again after a backoff). `healthy` is false while the API cannot be read: a result judged then
 * would be a guess.
 */
export class RunObserver {
  private readonly vmis = new Map<string, VmiView & { deleting: boolean }>();
  /** Names seen once and then deleted, or missing from a later LIST. */
  private readonly goneVmis = new Set<string>();
  private readonly pods = new Map<string, V1Pod>();
  private readonly failing = new Set<'vmis' | 'pods'>();
  private lastError = '';
  private readonly stopped = new AbortController();
  private readonly watches: AbortController[] = [];

  private readonly api: CanaryApi;
  private readonly runId: string;
  private readonly log: Logger;

  constructor(api: CanaryApi, runId: string, log: Logger) {
    this.api = api;
    this.runId = runId;
    this.log = log;
  }

  start(): void {
    void this.follow('vmis', `${RUN_LABEL}=${this.runId}`);
    // Every launcher pod in the namespace: their run label is not copied, but their VMI's uid is.
    void this.follow('pods', CREATED_BY_LABEL);
  }

  stop(): void {
    this.stopped.abort();
    for (const watch of this.watches) watch.abort();
  }

  get healthy(): boolean {
    return this.failing.size === 0;
  }

  get error(): string {
    return this.lastError;
  }

  vmi(name: string): VmiView | undefined {
    return this.vmis.get(name);
  }

  /** Gone or being deleted, and not by this run (the run stops looking before it deletes). */
  vmiGone(name: string): boolean {
    return this.goneVmis.has(name) || this.vmis.get(name)?.deleting === true;
  }

  launcherPod(vmiUid: string | undefined): V1Pod | undefined {
    if (vmiUid === undefined) return undefined;
    const pods = [...this.pods.values()].filter((pod) => pod.metadata?.labels?.[CREATED_BY_LABEL] === vmiUid);
    return pods.find((pod) => !pod.metadata?.deletionTimestamp) ?? pods[0];
  }

  private apply(kind: 'vmis' | 'pods', type: string, object: Named): void {
    const name = object.metadata?.name;
    if (name === undefined) return;
    if (kind === 'pods') {
      if (type === 'DELETED') this.pods.delete(name);
      else this.pods.set(name, object as V1Pod);
      return;
    }
    if (type === 'DELETED') {
      this.vmis.delete(name);
      this.goneVmis.add(name);
      return;
    }
    const vmi = object as Named & { status?: { phase?: string; conditions?: VmiView['conditions'] } };
    this.vmis.set(name, {
      ...(vmi.metadata?.uid !== undefined ? { uid: vmi.metadata.uid } : {}),
      ...(vmi.status?.phase !== undefined ? { phase: vmi.status.phase } : {}),
      ...(vmi.status?.conditions !== undefined ? { conditions: vmi.status.conditions } : {}),
      deleting: Boolean(vmi.metadata?.deletionTimestamp),
    });
  }

  private async list(kind: 'vmis' | 'pods', selector: string): Promise<Listed<Named>> {
    const listed: Listed<Named> = kind === 'vmis' ? await this.api.listVmis(selector) : await this.api.listPods(selector);
    const names = new Set(listed.items.map((item) => item.metadata?.name));
    if (kind === 'vmis') {
      for (const name of this.vmis.keys()) if (!names.has(name)) this.apply(kind, 'DELETED', { metadata: { name } });
    } else {
      this.pods.clear();
    }
    for (const item of listed.items) this.apply(kind, 'MODIFIED', item);
    return listed;
  }

  /** LIST, then WATCH from there, again and again until stopped. */
  private async follow(kind: 'vmis' | 'pods', selector: string): Promise<void> {
    let failures = 0;
    while (!this.stopped.signal.aborted) {
      try {
        const listed = await this.list(kind, selector);
        this.failing.delete(kind);
        failures = 0;
        await new Promise<void>((resolve) => {
          this.api
            .watch(kind, selector, listed.resourceVersion, (type, object) => {
              if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') this.apply(kind, type, object as Named);
            }, () => resolve())
            .then((watch) => {
              this.watches.push(watch);
              if (this.stopped.signal.aborted) watch.abort();
            }, () => resolve());
        });
      } catch (error) {
        failures += 1;
        this.failing.add(kind);
        this.lastError = apiFailure(error).message;
        this.log.warn({ kind, error: this.lastError }, 'cannot list the canary objects; trying again');
      }
      if (!this.stopped.signal.aborted) await new Promise((resolve) => setTimeout(resolve, failures > 0 ? backoffDelay(failures, DEFAULT_BACKOFF) + 200 : 200));
    }
  }
}
