/**
 * The test's own record of the VMIs in one namespace, from a WATCH it holds for as long as it
 * runs: when each VMI appeared and went (this process's clock, in ms), its firmware UUID and
 * labels. A VMI created and deleted between two polls is still seen, which is what "the canary
 * created no VMI" needs; the times give VM-seconds without asking the program under test.
 */
import { type KubeConfig, Watch } from '@kubernetes/client-node';

export interface RecordedVmi {
  name: string;
  uid: string;
  labels: Record<string, string>;
  /** spec.domain.firmware.uuid: the nonce the canary guest prints. */
  firmwareUuid?: string;
  /** metadata.creationTimestamp (whole seconds, the API server's clock). */
  createdAt: string;
  /** When this watch first saw it. */
  seenAtMs: number;
  /** When this watch saw it removed (its DELETED event). */
  goneAtMs?: number;
}

interface VmiObject {
  metadata?: { name?: string; uid?: string; labels?: Record<string, string>; creationTimestamp?: string | Date; resourceVersion?: string };
  spec?: { domain?: { firmware?: { uuid?: string } } };
}

export class VmiRecorder {
  /** Every VMI seen since start, by uid, in the order first seen. */
  readonly vmis = new Map<string, RecordedVmi>();
  private readonly watch: Watch;
  private readonly path: string;
  private resourceVersion: string | undefined;
  private controller: AbortController | undefined;
  private stopped = false;
  private failure: Error | undefined;

  constructor(kc: KubeConfig, namespace: string) {
    this.watch = new Watch(kc);
    this.path = `/apis/kubevirt.io/v1/namespaces/${namespace}/virtualmachineinstances`;
  }

  /** Opens the watch; resolves once the API server has accepted it. */
  async start(): Promise<void> {
    this.controller = await this.watch.watch(
      this.path,
      { allowWatchBookmarks: true, ...(this.resourceVersion ? { resourceVersion: this.resourceVersion } : {}) },
      (type: string, object: VmiObject) => this.onEvent(type, object),
      (error: unknown) => this.onDone(error),
    );
  }

  private onEvent(type: string, object: VmiObject): void {
    const metadata = object.metadata ?? {};
    if (metadata.resourceVersion) this.resourceVersion = metadata.resourceVersion;
    if (type === 'BOOKMARK' || !metadata.uid) return;
    if (type === 'ERROR') {
      // 410 Gone: the resourceVersion is too old; a fresh watch sees the VMIs that exist now.
      this.resourceVersion = undefined;
      return;
    }
    let vmi = this.vmis.get(metadata.uid);
    if (!vmi) {
      const created = metadata.creationTimestamp;
      vmi = {
        name: metadata.name ?? '',
        uid: metadata.uid,
        labels: metadata.labels ?? {},
        firmwareUuid: object.spec?.domain?.firmware?.uuid,
        createdAt: created instanceof Date ? created.toISOString() : String(created ?? ''),
        seenAtMs: Date.now(),
      };
      this.vmis.set(metadata.uid, vmi);
    }
    if (type === 'DELETED') vmi.goneAtMs ??= Date.now();
  }

  private onDone(error: unknown): void {
    if (this.stopped) return;
    // The API server ends every watch after a while: open it again where it ended.
    this.start().catch((failure: unknown) => {
      this.failure = failure instanceof Error ? failure : new Error(String(failure ?? error));
    });
  }

  /** The VMIs first seen at or after `sinceMs`. Throws if the watch could not be kept open. */
  seenSince(sinceMs: number): RecordedVmi[] {
    if (this.failure) throw new Error(`the VMI watch on ${this.path} failed: ${this.failure.message}`);
    return [...this.vmis.values()].filter((vmi) => vmi.seenAtMs >= sinceMs);
  }

  /** The VMIs seen and not yet seen deleted. */
  present(): RecordedVmi[] {
    return [...this.vmis.values()].filter((vmi) => vmi.goneAtMs === undefined);
  }

  stop(): void {
    this.stopped = true;
    this.controller?.abort();
  }
}
