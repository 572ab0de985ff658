import { compareMinor } from './minor.ts';
import type { CdiPair, KubernetesEol, VersionData } from './schema.ts';

/** Pure look-ups in validated version data, by "MAJOR.MINOR". */

/** The Kubernetes minors a KubeVirt minor supports, or null when the data does not know it. */
export function kubernetesWindow(data: VersionData, kubevirtMinor: string): readonly string[] | null {
  return data.kubevirtKubernetes.find((row) => row.kubevirt === kubevirtMinor)?.kubernetes ?? null;
}

/** The KubeVirt minors whose window includes a Kubernetes minor, newest first. */
export function kubevirtSupporting(data: VersionData, kubernetesMinor: string): string[] {
  return data.kubevirtKubernetes
    .filter((row) => row.kubernetes.includes(kubernetesMinor))
    .map((row) => row.kubevirt)
    .sort((a, b) => compareMinor(b, a));
}

export function cdiPairFor(data: VersionData, kubevirtMinor: string): CdiPair | null {
  return data.cdiPairing.find((row) => row.kubevirt === kubevirtMinor) ?? null;
}

export function eolFor(data: VersionData, kubernetesMinor: string): KubernetesEol | null {
  return data.kubernetesEol.find((row) => row.kubernetes === kubernetesMinor) ?? null;
}

/** The oldest Kubernetes minor with an end-of-life date (the schema guarantees at least one row). */
export function oldestEol(data: VersionData): KubernetesEol | null {
  return data.kubernetesEol.reduce<KubernetesEol | null>(
    (oldest, row) => (oldest === null || compareMinor(row.kubernetes, oldest.kubernetes) < 0 ? row : oldest),
    null,
  );
}
