/**
 * Facts: what the probes saw on a host, as plain JSON-serialisable data.
 * Probes produce them; `evaluate` interprets them. Nothing here decides pass or fail.
 */

/** A file read under the host root: its content, its absence, or why it could not be read. */
export type FileRead =
  | { state: 'ok'; text: string; truncated: boolean }
  | { state: 'missing' }
  | { state: 'unreadable'; code: string; detail: string };

/** A probe result that either holds a value or says why the probe could not tell. */
export type Observation<T> =
  | { state: 'ok'; value: T }
  | { state: 'unknown'; reason: string };

export type CpuArch = 'x86_64' | 'arm64' | 'other';
export type CpuVendor = 'intel' | 'amd' | 'hygon' | 'arm' | 'other';

export interface CpuFacts {
  arch: CpuArch;
  vendor: CpuVendor;
  model: string;
  processors: number;
  vmx: boolean;
  svm: boolean;
  /** The kernel runs under a hypervisor: this host is itself a VM. */
  hypervisor: boolean;
}

export type FileKind = 'char' | 'block' | 'file' | 'directory' | 'other';

export type DeviceFacts =
  | { path: string; state: 'missing' }
  | {
      path: string;
      state: 'present';
      kind: FileKind;
      major: number;
      minor: number;
      /** The major:minor the probe required, e.g. `10:232`. */
      expected: string;
      /** True when a test override replaced the kernel's numbers (see DeviceSpec). */
      overridden: boolean;
      /** `ok`, or the errno code of open(O_RDWR): EACCES, ENODEV, EPERM, ... */
      open: string;
    }
  | { path: string; state: 'unknown'; reason: string };

export interface OsRelease {
  id: string;
  idLike: string[];
  versionId: string;
  name: string;
  prettyName: string;
}

export interface ModuleFacts {
  /** Where the list came from; `sys/module` also lists built-in modules that have parameters. */
  sources: string[];
  /** The modules of interest that were found loaded or built in. */
  loaded: string[];
}

export interface NestedFacts {
  /** Raw value of sys/module/kvm_{intel,amd}/parameters/nested, when present. */
  kvmIntel: string | null;
  kvmAmd: string | null;
}

export interface CgroupFacts {
  version: 1 | 2;
  controllers: string[];
}

export interface IommuFacts {
  groups: number;
  units: number;
}

export interface HostFacts {
  hostRoot: string;
  cpu: Observation<CpuFacts>;
  kvm: DeviceFacts;
  tun: DeviceFacts;
  vhostNet: DeviceFacts;
  kernelRelease: Observation<string>;
  os: Observation<OsRelease>;
  modules: Observation<ModuleFacts>;
  nested: NestedFacts;
  cgroup: Observation<CgroupFacts>;
  iommu: Observation<IommuFacts>;
}
