import { describe, expect, it } from 'vitest';
import { debianPackages, npmPackages, purlOf, spdxDocument } from './sbom.ts';

// Stanzas as dpkg writes them to var/lib/dpkg/status (abridged), in dpkg's own order.
const STATUS = `Package: libvirt-clients
Status: install ok installed
Priority: optional
Architecture: amd64
Version: 9.0.0-4+deb12u2
Description: Programs for the libvirt library
 libvirt is a C toolkit to interact with the virtualization capabilities

Package: adduser
Status: install ok installed
Architecture: all
Version: 3.134

Package: old-removed
Status: deinstall ok config-files
Architecture: amd64
Version: 1.0-1
`;

const HIDDEN_LOCK = JSON.stringify({
  name: 'virtgate',
  lockfileVersion: 3,
  packages: {
    'node_modules/@kubernetes/client-node': { version: '2.0.1', license: 'Apache-2.0' },
    'node_modules/ms': { version: '2.1.3', license: 'MIT' },
    'node_modules/debug/node_modules/ms': { version: '2.1.2', license: 'MIT' },
    'node_modules/pino/node_modules/ms': { version: '2.1.3', license: 'MIT' },
    'node_modules/linked': { resolved: '../linked', link: true },
  },
});

describe('debianPackages', () => {
  it('lists the installed packages only, with version and architecture, by name', () => {
    expect(debianPackages(STATUS)).toEqual([
      { ecosystem: 'deb', name: 'adduser', version: '3.134', arch: 'all' },
      { ecosystem: 'deb', name: 'libvirt-clients', version: '9.0.0-4+deb12u2', arch: 'amd64' },
    ]);
  });
});

describe('npmPackages', () => {
  it('lists each installed name@version once, nested copies included, links left out', () => {
    expect(npmPackages(HIDDEN_LOCK).map((p) => `${p.name}@${p.version}`)).toEqual(['@kubernetes/client-node@2.0.1', 'ms@2.1.2', 'ms@2.1.3']);
  });

  it('refuses a file that is not npm\'s installed tree', () => {
    expect(() => npmPackages('{"name":"x"}')).toThrow();
  });
});

describe('purlOf', () => {
  it('writes package URLs as the purl spec does (scope as %40, Debian with its arch)', () => {
    expect(purlOf({ ecosystem: 'npm', name: '@kubernetes/client-node', version: '2.0.1' })).toBe('pkg:npm/%40kubernetes/client-node@2.0.1');
    expect(purlOf({ ecosystem: 'deb', name: 'libvirt-clients', version: '9.0.0-4+deb12u2', arch: 'amd64' })).toBe('pkg:deb/debian/libvirt-clients@9.0.0-4%2Bdeb12u2?arch=amd64');
  });
});

describe('spdxDocument', () => {
  it('describes the image and relates it to every package, dated as given', () => {
    const doc = spdxDocument(
      { image: 'virtgate-agent', version: '1.2.3', source: 'https://example.org/virtgate', created: new Date('2026-03-04T05:06:07.890Z') },
      debianPackages(STATUS),
    ) as { creationInfo: { created: string }; packages: Array<{ SPDXID: string }>; relationships: Array<{ relatedSpdxElement: string }>; documentDescribes: string[] };
    expect(doc.creationInfo.created).toBe('2026-03-04T05:06:07Z');
    expect(doc.documentDescribes).toEqual(['SPDXRef-image-virtgate-agent']);
    const ids = doc.packages.map((p) => p.SPDXID);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.relationships.map((r) => r.relatedSpdxElement)).toEqual(ids.slice(1));
    for (const id of ids) expect(id).toMatch(/^SPDXRef-[A-Za-z0-9.-]+$/);
  });
});
