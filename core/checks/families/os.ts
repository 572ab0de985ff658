import { isEnterpriseLinux } from '../host/enterprise-linux.ts';
import type { CheckFamily, ProbeContext } from '../family.ts';
import { describeRead, readHostFile } from '../host/files.ts';
import type { Observation } from '../observation.ts';
import { type OsRelease, parseOsRelease } from '../host/parse/os-release.ts';
import type { CheckOutcomeOf } from '../outcome.ts';

/** The host's userland: Enterprise Linux, like virt-launcher's, or not. */
const IDS = ['os.userland'] as const;
type OsCheckId = (typeof IDS)[number];

export interface OsFamilyFacts {
  os: Observation<OsRelease>;
}

/** The host's userland, from etc/os-release (falling back to usr/lib/os-release, as os-release(5) says). */
async function probeOsRelease(hostRoot: string): Promise<Observation<OsRelease>> {
  let read = await readHostFile(hostRoot, 'etc/os-release', 64 * 1024);
  if (read.state === 'missing') read = await readHostFile(hostRoot, 'usr/lib/os-release', 64 * 1024);
  if (read.state !== 'ok') return { state: 'unknown', reason: describeRead('etc/os-release', read) };
  return parseOsRelease(read.text);
}

function evaluateUserland(os: Observation<OsRelease>): CheckOutcomeOf<OsCheckId> {
  const id = 'os.userland';
  if (os.state === 'unknown') return { id, status: 'error', message: os.reason };
  const { id: osId, prettyName, idLike } = os.value;
  const observed = { id: osId, idLike, prettyName, versionId: os.value.versionId };
  if (isEnterpriseLinux(os.value)) {
    return { id, status: 'pass', message: `${prettyName} is Enterprise Linux, like virt-launcher's userland`, observed };
  }
  return {
    id,
    status: 'warn',
    message: `${prettyName} is not Enterprise Linux; virt-launcher's EL QEMU and libvirt may negotiate KVM/vhost features this kernel handles differently`,
    hint: 'KubeVirt documents this as a risk, not a blocker: test VM start and live migration on this node image.',
    observed,
  };
}

export const osFamily = {
  ids: IDS,
  probe: async ({ hostRoot }: ProbeContext): Promise<OsFamilyFacts> => ({ os: await probeOsRelease(hostRoot) }),
  evaluate: (facts: OsFamilyFacts) => [evaluateUserland(facts.os)],
  example: { os: { state: 'ok', value: { id: 'rhel', idLike: ['fedora'], versionId: '9.4', name: 'rhel', prettyName: 'Red Hat Enterprise Linux 9.4 (Plow)' } } } satisfies OsFamilyFacts,
} satisfies CheckFamily;
