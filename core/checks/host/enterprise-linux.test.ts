import { describe, expect, it } from 'vitest';
import { isEnterpriseLinux, isEnterpriseLinuxKernel } from './enterprise-linux.ts';
import type { OsRelease } from './parse/os-release.ts';

const os = (id: string, idLike: string[] = []): OsRelease => ({ id, idLike, versionId: '9', name: id, prettyName: id });

describe('Enterprise Linux', () => {
  it.each(['rhel', 'centos', 'rocky', 'almalinux', 'ol', 'rhcos'])('counts %s', (id) => {
    expect(isEnterpriseLinux(os(id, ['rhel', 'fedora']))).toBe(true);
  });
  it.each([
    ['amzn', ['centos', 'rhel', 'fedora']],
    ['amzn', ['fedora']],
    ['bottlerocket', []],
    ['ubuntu', ['debian']],
    ['debian', []],
    ['fedora', []],
  ])('does not count %s even with ID_LIKE=%o', (id, idLike) => {
    expect(isEnterpriseLinux(os(id, idLike))).toBe(false);
  });
  it.each([
    ['5.14.0-503.14.1.el9_5.x86_64', true],
    ['4.18.0-553.el8_10.x86_64', true],
    ['6.12.0-55.el10.x86_64', true],
    ['6.8.9-1.el9.elrepo.x86_64', false],
    ['6.12.0-0.20.20.el9uek.x86_64', false],
    ['6.1.102-111.182.amzn2023.x86_64', false],
    ['6.8.0-1015-aws', false],
  ])('kernel %s is an EL kernel: %s', (release, expected) => {
    expect(isEnterpriseLinuxKernel(release)).toBe(expected);
  });
});
